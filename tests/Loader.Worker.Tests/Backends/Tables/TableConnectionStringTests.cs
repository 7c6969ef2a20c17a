using Loader.Worker.Backends.Tables;

namespace Loader.Worker.Tests.Backends.Tables;

public sealed class TableConnectionStringTests
{
    [Fact]
    public void The_emulator_shortcut_targets_azurite_on_its_default_port()
    {
        var parsed = TableConnectionString.Parse("UseDevelopmentStorage=true");

        Assert.Equal(new Uri("http://127.0.0.1:10002/devstoreaccount1"), parsed.TableEndpoint);
        Assert.Equal("devstoreaccount1", parsed.AccountName);
        Assert.NotNull(parsed.AccountKey);
    }

    [Fact]
    public void Account_name_and_suffix_give_the_host_style_endpoint()
    {
        var parsed = TableConnectionString.Parse("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=a2V5;EndpointSuffix=core.windows.net");

        Assert.Equal(new Uri("https://acme.table.core.windows.net"), parsed.TableEndpoint);
        Assert.Equal("acme", parsed.AccountName);
    }

    [Fact]
    public void An_explicit_table_endpoint_wins_and_the_account_is_taken_from_the_path_on_loopback()
    {
        var parsed = TableConnectionString.Parse("AccountKey=a2V5;TableEndpoint=http://127.0.0.1:12345/devstoreaccount1/");

        Assert.Equal(new Uri("http://127.0.0.1:12345/devstoreaccount1"), parsed.TableEndpoint);
        Assert.Equal("devstoreaccount1", parsed.AccountName);
    }

    [Fact]
    public void A_shared_access_signature_is_kept_without_its_question_mark()
    {
        var parsed = TableConnectionString.Parse("TableEndpoint=https://acme.table.core.windows.net;SharedAccessSignature=?sv=2019&sig=abc");

        Assert.Equal("sv=2019&sig=abc", parsed.SharedAccessSignature);
        Assert.Null(parsed.AccountKey);
    }

    [Theory]
    [InlineData("AccountName=acme;AccountKey=%%%notbase64", "AccountKey in the connection string is not valid base64.")]
    [InlineData("AccountName=acme", "neither AccountKey nor SharedAccessSignature")]
    [InlineData("garbage", "segment 1 is not of the form Name=Value")]
    [InlineData("AccountKey=a2V5", "names neither TableEndpoint nor AccountName")]
    public void Problems_are_described_without_echoing_the_string(string connectionString, string expected)
    {
        var exception = Assert.Throws<FormatException>(() => TableConnectionString.Parse(connectionString));

        Assert.Contains(expected, exception.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("notbase64", exception.Message, StringComparison.Ordinal);
    }
}
