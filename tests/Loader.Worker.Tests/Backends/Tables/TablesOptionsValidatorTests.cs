using Loader.Worker.Backends.Tables;

namespace Loader.Worker.Tests.Backends.Tables;

public sealed class TablesOptionsValidatorTests
{
    [Fact]
    public void A_table_and_a_connection_string_pass()
    {
        Assert.True(new TablesOptionsValidator("Loader:Tables").Validate(null, new TablesOptions { Table = "flights", ConnectionString = "UseDevelopmentStorage=true" }).Succeeded);
    }

    [Fact]
    public void A_reserved_table_name_and_two_ways_in_are_named_by_key_without_the_signature()
    {
        var result = new TablesOptionsValidator("Loader:Tables").Validate(null, new TablesOptions { Table = "Tables", Endpoint = "ftp://account.table.core.windows.net?sig=secret", ConnectionString = "UseDevelopmentStorage=true" });

        Assert.Equal(
            [
                "Loader:Tables:Table 'Tables' is a name the Table service keeps for itself; choose another.",
                "Loader:Tables:Endpoint and Loader:Tables:ConnectionString are both set: give one (Endpoint signs in with DefaultAzureCredential).",
                "Loader:Tables:Endpoint 'ftp://account.table.core.windows.net' is not an http(s) URL, e.g. https://account.table.core.windows.net.",
            ],
            result.Failures!);
    }
}
