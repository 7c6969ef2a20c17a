using Loader.Worker.Backends.Tables;
using Loader.Worker.Storage;

namespace Loader.Worker.Tests.Storage;

public sealed class StorageConnectionStringTests
{
    [Fact]
    public void The_emulator_shortcut_targets_azurite_tables_and_blobs_on_their_default_ports()
    {
        var parsed = StorageConnectionString.Parse("UseDevelopmentStorage=true");

        Assert.Equal(new Uri("http://127.0.0.1:10002/devstoreaccount1"), parsed.TableEndpoint);
        Assert.Equal(new Uri("http://127.0.0.1:10000/devstoreaccount1"), parsed.BlobEndpoint);
        Assert.Equal("devstoreaccount1", parsed.AccountName);
        Assert.Equal(Convert.FromBase64String(StorageConnectionString.DevelopmentAccountKey), parsed.AccountKey);
    }

    [Fact]
    public void The_emulator_behind_a_proxy_host_keeps_the_default_ports()
    {
        var parsed = StorageConnectionString.Parse("UseDevelopmentStorage=true;DevelopmentStorageProxyUri=http://azurite");

        Assert.Equal(new Uri("http://azurite:10002/devstoreaccount1"), parsed.TableEndpoint);
        Assert.Equal(new Uri("http://azurite:10000/devstoreaccount1"), parsed.BlobEndpoint);
    }

    [Fact]
    public void Account_name_and_suffix_give_both_host_style_endpoints()
    {
        var parsed = StorageConnectionString.Parse("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=a2V5;EndpointSuffix=core.usgovcloudapi.net");

        Assert.Equal(new Uri("https://acme.table.core.usgovcloudapi.net"), parsed.TableEndpoint);
        Assert.Equal(new Uri("https://acme.blob.core.usgovcloudapi.net"), parsed.BlobEndpoint);
        Assert.Equal("acme", parsed.AccountName);
        Assert.Equal("key"u8.ToArray(), parsed.AccountKey);
    }

    [Fact]
    public void Explicit_endpoints_win_over_the_account_name()
    {
        var parsed = StorageConnectionString.Parse(
            "AccountName=acme;AccountKey=a2V5;TableEndpoint=https://tables.example.net/;BlobEndpoint=https://blobs.example.net");

        Assert.Equal(new Uri("https://tables.example.net"), parsed.TableEndpoint);
        Assert.Equal(new Uri("https://blobs.example.net"), parsed.BlobEndpoint);
        Assert.Equal("acme", parsed.AccountName);
    }

    [Fact]
    public void A_blob_endpoint_alone_gives_no_table_endpoint_and_the_table_client_says_so_as_before()
    {
        const string ConnectionString = "AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:12345/devstoreaccount1/";

        var parsed = StorageConnectionString.Parse(ConnectionString);

        Assert.Equal(new Uri("http://127.0.0.1:12345/devstoreaccount1"), parsed.BlobEndpoint);
        Assert.Null(parsed.TableEndpoint);
        Assert.Equal("devstoreaccount1", parsed.AccountName);
        var exception = Assert.Throws<FormatException>(() => TableConnectionString.Parse(ConnectionString));
        Assert.Equal("the connection string names neither TableEndpoint nor AccountName.", exception.Message);
    }

    [Fact]
    public void A_table_endpoint_alone_gives_no_blob_endpoint()
    {
        var parsed = StorageConnectionString.Parse("TableEndpoint=https://acme.table.core.windows.net;SharedAccessSignature=?sv=2019&sig=abc");

        Assert.Null(parsed.BlobEndpoint);
        Assert.Equal("sv=2019&sig=abc", parsed.SharedAccessSignature);
        var exception = Assert.Throws<FormatException>(parsed.RequireBlobEndpoint);
        Assert.Equal("the connection string names neither BlobEndpoint nor AccountName.", exception.Message);
    }

    [Fact]
    public void The_table_client_gets_the_table_endpoint_account_key_and_signature()
    {
        var emulator = TableConnectionString.Parse("UseDevelopmentStorage=true");
        var local = TableConnectionString.Parse("AccountKey=a2V5;TableEndpoint=http://127.0.0.1:12345/devstoreaccount1/");
        var signed = TableConnectionString.Parse("TableEndpoint=https://acme.table.core.windows.net;SharedAccessSignature=?sv=2019&sig=abc");

        Assert.Equal((new Uri("http://127.0.0.1:10002/devstoreaccount1"), "devstoreaccount1"), (emulator.TableEndpoint, emulator.AccountName));
        Assert.Equal(Convert.FromBase64String(TableConnectionString.DevelopmentAccountKey), emulator.AccountKey);
        Assert.Equal((new Uri("http://127.0.0.1:12345/devstoreaccount1"), "devstoreaccount1"), (local.TableEndpoint, local.AccountName));
        Assert.Equal(("sv=2019&sig=abc", null), (signed.SharedAccessSignature, signed.AccountKey));
    }

    [Theory]
    [InlineData("AccountName=acme;AccountKey=%%%notbase64", "AccountKey in the connection string is not valid base64.")]
    [InlineData("AccountName=acme", "neither AccountKey nor SharedAccessSignature")]
    [InlineData("garbage", "segment 1 is not of the form Name=Value")]
    [InlineData("AccountKey=a2V5;SharedAccessSignature=notbase64", "names neither TableEndpoint nor AccountName")]
    [InlineData("AccountKey=a2V5;TableEndpoint=ftp://notbase64", "TableEndpoint in the connection string is not an http(s) URL.")]
    [InlineData("AccountKey=a2V5;BlobEndpoint=ftp://notbase64", "BlobEndpoint in the connection string is not an http(s) URL.")]
    public void Problems_are_described_to_both_clients_without_echoing_the_string(string connectionString, string expected)
    {
        var storage = Assert.Throws<FormatException>(() => StorageConnectionString.Parse(connectionString));
        var table = Assert.Throws<FormatException>(() => TableConnectionString.Parse(connectionString));

        Assert.All([storage.Message, table.Message], message =>
        {
            Assert.Contains(expected, message, StringComparison.Ordinal);
            Assert.DoesNotContain("notbase64", message, StringComparison.Ordinal);
        });
    }

    [Fact]
    public void The_parsed_string_prints_neither_key_nor_signature()
    {
        var text = StorageConnectionString.Parse("AccountName=acme;AccountKey=c2VjcmV0a2V5;SharedAccessSignature=sv=1&sig=SECRETSIG").ToString();

        Assert.Contains("AccountName = acme", text, StringComparison.Ordinal);
        Assert.Contains("AccountKey set", text, StringComparison.Ordinal);
        Assert.DoesNotContain("c2VjcmV0a2V5", text, StringComparison.Ordinal);
        Assert.DoesNotContain("SECRETSIG", text, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("https://acme.blob.core.windows.net", "acme", false)]
    [InlineData("https://acme.table.core.chinacloudapi.cn/", "acme", false)]
    [InlineData("http://127.0.0.1:10000/devstoreaccount1", "devstoreaccount1", true)]
    [InlineData("http://[::1]:10000/other", "other", true)]
    [InlineData("http://localhost:10000/devstoreaccount1", "devstoreaccount1", true)]
    [InlineData("http://azurite:10002/devstoreaccount1", "devstoreaccount1", true)]
    [InlineData("http://127.0.0.1:10000", "devstoreaccount1", true)]
    public void The_account_comes_from_the_host_or_from_the_path_of_an_emulator_endpoint(string endpoint, string account, bool pathStyle)
    {
        Assert.Equal(account, StorageConnectionString.AccountNameFromEndpoint(new Uri(endpoint)));
        Assert.Equal(pathStyle, StorageConnectionString.IsPathStyle(new Uri(endpoint)));
    }
}
