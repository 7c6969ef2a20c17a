using Loader.Abstractions;
using Loader.Worker.Configuration;

namespace Loader.Worker.Tests.Reporting;

public sealed class SettingsCatalogTests
{
    [Fact]
    public void Connection_strings_are_hidden_and_urls_lose_their_password_and_query_values_but_keys_templates_stay()
    {
        var options = new LoaderOptions
        {
            Input = "https://acct.blob.core.windows.net/in/data.csv?sv=2024&sig=SECRET1",
            PartitionKey = "{dest}",
            Columns = { ["year"] = ColumnType.Int32 },
        };
        options.Tables.ConnectionString = "AccountName=a;AccountKey=SECRET2";
        options.Tables.Endpoint = "https://acct.table.core.windows.net/?sv=1&sig=SECRET3";
        options.Telemetry.AzureMonitorConnectionString = "InstrumentationKey=SECRET4";
        options.Telemetry.OtlpEndpoint = "https://user:SECRET5@collector:4318/?api-key=SECRET6";

        var values = SettingsCatalog.Values(options).ToDictionary();

        Assert.DoesNotContain(values.Values, value => value.Contains("SECRET", StringComparison.Ordinal));
        Assert.Equal(SettingsCatalog.Hidden, values["Loader:Tables:ConnectionString"]);
        Assert.Equal("https://acct.blob.core.windows.net/in/data.csv?sv=(removed)&sig=(removed)", values["Loader:Input"]);
        Assert.Equal("https://(removed)@collector:4318/?api-key=(removed)", values["Loader:Telemetry:OtlpEndpoint"]);
        Assert.Equal("{dest}", values["Loader:PartitionKey"]);
        Assert.Equal("Int32", values["Loader:Columns:year"]);
        Assert.Equal("", values["Loader:Cosmos:ConnectionString"]);
    }

    [Fact]
    public void The_keys_a_start_reads_are_the_described_settings_and_their_secrecy()
    {
        var described = SettingsCatalog.Describe().Append(SettingsCatalog.SettingsFile).Select(setting => (setting.Key, setting.IsSecret));

        var keys = SettingsCatalog.Keys().Select(setting => (setting.Key, setting.IsSecret));

        Assert.Equal(described, keys);
        Assert.Contains(("Loader:Tables:ConnectionString", true), keys);
        Assert.Contains(("Loader:Columns:<name>", false), keys);
    }
}
