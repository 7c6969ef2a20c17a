using Azure;
using Loader.Worker.Outputs;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Storage.Blobs;
using Loader.Worker.Security;

namespace Loader.Worker.Tests.Outputs;

/// <summary>Outputs kept in blobs (report, rejects, checkpoint), through the factory the loader uses, against a real Azurite Blob service.</summary>
public sealed class BlobOutputFileTests(BlobAzuriteFixture fixture) : IClassFixture<BlobAzuriteFixture>
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    private OutputFile Output(string container, string name, string? connectionString = null) =>
        new OutputFiles(new BlobClientFactory(new BlobOptions { ConnectionString = connectionString ?? fixture.Azurite.ConnectionString }), Redaction.Rule)
            .For($"{fixture.Azurite.BlobEndpoint}/{container}/{BlobPathEncoding.Escape(name)}")!;

    [Fact]
    public async Task A_written_output_reads_back_with_the_same_bytes_and_content_type()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        var content = BinaryData.FromString("""{"watermark":12345,"note":"è"}""");
        var output = Output(container, "checkpoints/load.json");

        await output.WriteAsync(content, "application/json", _cancellation);

        Assert.Equal(content.ToArray(), (await output.ReadAsync(_cancellation))!.ToArray());
        var properties = await fixture.Blob(container, "checkpoints/load.json").GetPropertiesAsync(cancellationToken: _cancellation);
        Assert.Equal("application/json", properties.Value.ContentType);
        Assert.Null(await Output(container, "checkpoints/missing.json").ReadAsync(_cancellation));
    }

    [Fact]
    public async Task Writing_again_replaces_the_blob_whole()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        var output = Output(container, "report.json");

        await output.WriteAsync(BinaryData.FromString("a longer first version"), "application/json", _cancellation);
        await output.WriteAsync(BinaryData.FromString("22"), "application/json", _cancellation);

        Assert.Equal("22", (await output.ReadAsync(_cancellation))!.ToString());
    }

    [Theory]
    [InlineData("dir one/café+x%20y.csv")]
    [InlineData("odd/#hash?query&amp=1;semi.csv")]
    [InlineData("quotes/~tilde'quote(paren)!$dollar,comma=eq@at.csv")]
    public async Task Names_with_characters_urls_escape_are_stored_and_read_back_as_given(string name)
    {
        var container = await fixture.CreateContainerAsync(_cancellation);

        await Output(container, name).WriteAsync(BinaryData.FromString(name), "text/plain", _cancellation);

        Assert.Equal(name, (await fixture.Blob(container, name).DownloadContentAsync(_cancellation)).Value.Content.ToString());
        var listed = new List<string>();
        await foreach (var blob in fixture.Client.GetBlobContainerClient(container).GetBlobsAsync(
            new Azure.Storage.Blobs.Models.GetBlobsOptions { Prefix = name[..5] }, _cancellation))
        {
            listed.Add(blob.Name);
        }

        Assert.Equal([name], listed);
    }

    [Fact]
    public async Task A_wrong_account_key_is_refused_with_403_in_one_line_without_the_key()
    {
        var wrongKey = Convert.ToBase64String(BlobAzuriteFixture.RandomBytes(64, seed: 7));
        var connectionString = fixture.Azurite.ConnectionString.Replace(AzuriteProcess.DevelopmentAccountKey, wrongKey, StringComparison.Ordinal);

        var exception = await Assert.ThrowsAsync<RequestFailedException>(
            () => Output("anything", "x.csv", connectionString).WriteAsync(BinaryData.FromString("x"), "text/csv", _cancellation));

        Assert.Equal(403, exception.Status);
        Assert.StartsWith($"uploading blob '{fixture.Azurite.BlobEndpoint}/anything/x.csv' failed with 403", exception.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', exception.Message);
        Assert.Equal("AuthorizationFailure", exception.ErrorCode);
        Assert.DoesNotContain(wrongKey, exception.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain(wrongKey[..16], exception.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_connection_string_for_another_account_is_refused_naming_both_endpoints_and_no_key()
    {
        var factory = new BlobClientFactory(new BlobOptions { ConnectionString = fixture.Azurite.ConnectionString });
        Assert.True(BlobAddress.TryParse("https://acme.blob.core.windows.net/input/x.csv", out var address, out _));

        var exception = Assert.Throws<InvalidOperationException>(() => factory.For(address));

        Assert.Contains("acme.blob.core.windows.net", exception.Message, StringComparison.Ordinal);
        Assert.Contains(fixture.Azurite.BlobEndpoint, exception.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(AzuriteProcess.DevelopmentAccountKey, exception.Message, StringComparison.Ordinal);
    }
}
