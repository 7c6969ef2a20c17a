using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Tests.Storage.Blobs;

public sealed class BlobAddressTests
{
    private static BlobAddress Parse(string text)
    {
        Assert.True(BlobAddress.TryParse(text, out var address, out var error), error);
        return address;
    }

    [Theory]
    [InlineData("https://acme.blob.core.windows.net/input/2024/flights.csv", "https://acme.blob.core.windows.net/", "input", "2024/flights.csv")]
    [InlineData("https://acme.blob.core.usgovcloudapi.net/input/flights.csv", "https://acme.blob.core.usgovcloudapi.net/", "input", "flights.csv")]
    [InlineData("https://acme.z5.blob.storage.azure.net/input/flights.csv", "https://acme.z5.blob.storage.azure.net/", "input", "flights.csv")]
    [InlineData("https://acme.privatelink.blob.core.windows.net/input/flights.csv", "https://acme.privatelink.blob.core.windows.net/", "input", "flights.csv")]
    [InlineData("http://127.0.0.1:10000/devstoreaccount1/input/flights.csv", "http://127.0.0.1:10000/devstoreaccount1", "input", "flights.csv")]
    [InlineData("http://localhost:10000/devstoreaccount1/input/a/b.csv", "http://localhost:10000/devstoreaccount1", "input", "a/b.csv")]
    [InlineData("http://azurite:10000/devstoreaccount1/input/flights.csv", "http://azurite:10000/devstoreaccount1", "input", "flights.csv")]
    public void Host_style_and_path_style_urls_name_account_container_and_blob(string text, string endpoint, string container, string path)
    {
        var address = Parse(text);

        Assert.Equal(new Uri(endpoint), address.AccountEndpoint);
        Assert.Equal((container, path), (address.Container, address.Path));
        Assert.False(address.IsPrefix);
        Assert.Null(address.SharedAccessSignature);
        Assert.Equal(text, address.Display);
    }

    [Theory]
    [InlineData("https://acme.blob.core.windows.net/input/2024/", "2024/")]
    [InlineData("https://acme.blob.core.windows.net/input/2024/flights-*", "2024/flights-")]
    [InlineData("https://acme.blob.core.windows.net/input/*", "")]
    [InlineData("https://acme.blob.core.windows.net/input/", "")]
    [InlineData("https://acme.blob.core.windows.net/input", "")]
    [InlineData("http://127.0.0.1:10000/devstoreaccount1/input/logs/", "logs/")]
    public void An_empty_path_or_one_ending_in_a_slash_or_a_star_is_a_prefix(string text, string prefix)
    {
        var address = Parse(text);

        Assert.True(address.IsPrefix);
        Assert.Equal(prefix, address.Prefix);
        Assert.Equal("input", address.Container);
    }

    [Fact]
    public void A_star_prefix_keeps_its_star_in_the_display()
    {
        Assert.Equal("https://acme.blob.core.windows.net/input/2024/flights-*", Parse("https://acme.blob.core.windows.net/input/2024/flights-*").Display);
    }

    [Fact]
    public void Percent_escapes_are_decoded_as_utf8_and_the_display_escapes_them_again()
    {
        var address = Parse("https://acme.blob.core.windows.net/input/dir%20one/caf%C3%A9%2B%3F%23%2A.csv");

        Assert.Equal("dir one/café+?#*.csv", address.Path);
        Assert.False(address.IsPrefix);
        Assert.Equal("https://acme.blob.core.windows.net/input/dir%20one/caf%C3%A9%2B%3F%23%2A.csv", address.Display);
    }

    [Fact]
    public void Unescaped_spaces_and_backslashes_are_taken_as_written()
    {
        Assert.Equal(@"my dir\flights 1.csv", Parse(@"https://acme.blob.core.windows.net/input/my dir\flights 1.csv").Path);
    }

    [Fact]
    public void A_shared_access_signature_is_kept_apart_and_never_shown()
    {
        var address = Parse("https://acme.blob.core.windows.net/input/flights.csv?sv=2021-12-02&sp=r&sig=SECRETSIG%3D");

        Assert.Equal("sv=2021-12-02&sp=r&sig=SECRETSIG%3D", address.SharedAccessSignature);
        Assert.Equal("flights.csv", address.Path);
        Assert.Equal("https://acme.blob.core.windows.net/input/flights.csv", address.Display);
        Assert.Equal(address.Display, address.ToString());
        Assert.DoesNotContain("SECRETSIG", $"{address}", StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("not a url", "is not an http(s) URL")]
    [InlineData("ftp://acme.blob.core.windows.net/input/x.csv", "is not an http(s) URL")]
    [InlineData("https://acme.table.core.windows.net/input/x.csv", "is not a Blob service endpoint")]
    [InlineData("https://blob.example.com/input/x.csv", "is not a Blob service endpoint")]
    [InlineData("https://acme.blob.core.windows.net/", "names no container")]
    [InlineData("http://127.0.0.1:10000/", "names no account")]
    [InlineData("http://127.0.0.1:10000/devstoreaccount1", "names no container")]
    [InlineData("https://acme.blob.core.windows.net/Input_Files/x.csv", "'Input_Files' in 'https://acme.blob.core.windows.net/Input_Files/x.csv' is not a container name")]
    [InlineData("https://acme.blob.core.windows.net/ab/x.csv", "'ab' in")]
    [InlineData("https://acme.blob.core.windows.net/input/2024/*.csv", "only a trailing * (a prefix) is understood")]
    [InlineData("https://acme.blob.core.windows.net/input/100%.csv", "'%' at position 4 of the path is not followed by two hex digits")]
    [InlineData("https://acme.blob.core.windows.net/input/%FF.csv", "not UTF-8")]
    [InlineData("https://acme.blob.core.windows.net/input/a/../b.csv", "'.' or '..' segment")]
    [InlineData("https://acme.blob.core.windows.net/input/x.csv#part", "has a fragment")]
    [InlineData("https://user:pass@acme.blob.core.windows.net/input/x.csv", "user name or password")]
    [InlineData("https://acme.blob.core.windows.net/input/x.csv?snapshot=2024", "is not a shared access signature (it has no sig=)")]
    public void A_bad_url_gives_an_error_naming_the_problem(string text, string expected)
    {
        Assert.False(BlobAddress.TryParse(text, out var address, out var error));

        Assert.Null(address);
        Assert.Contains(expected, error, StringComparison.Ordinal);
    }

    [Fact]
    public void An_error_never_quotes_the_signature()
    {
        Assert.False(BlobAddress.TryParse("https://acme.table.core.windows.net/input/x.csv?sv=1&sig=SECRETSIG", out _, out var error));

        Assert.Contains("https://acme.table.core.windows.net/input/x.csv", error, StringComparison.Ordinal);
        Assert.DoesNotContain("SECRETSIG", error, StringComparison.Ordinal);
    }
}
