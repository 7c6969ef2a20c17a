using Azure;
using Loader.Worker.Storage;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Tests.Storage.Blobs;

/// <summary>The Blob REST client against a real Azurite Blob service, signing every request with Shared Key.</summary>
public sealed class BlobRestClientTests(BlobAzuriteFixture fixture) : IClassFixture<BlobAzuriteFixture>
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private BlobRestClient Client => fixture.Client;

    [Fact]
    public async Task A_container_is_created_once()
    {
        var container = $"once{Environment.ProcessId}";

        var first = await Client.CreateContainerIfNotExistsAsync(container, _cancellation);
        var second = await Client.CreateContainerIfNotExistsAsync(container, _cancellation);

        Assert.Equal((201, true), (first.GetRawResponse().Status, first.Value));
        Assert.Equal((409, false), (second.GetRawResponse().Status, second.Value));
    }

    [Fact]
    public async Task An_uploaded_blob_downloads_with_the_same_bytes_and_version()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        var content = BinaryData.FromString("""{"watermark":12345,"note":"è"}""");

        var uploaded = await Client.UploadAsync(container, "checkpoints/load.json", content, "application/json", _cancellation);
        var downloaded = await Client.DownloadAsync(container, "checkpoints/load.json", _cancellation);

        Assert.NotNull(downloaded);
        Assert.Equal(content.ToArray(), downloaded.Content.ToArray());
        Assert.Equal(uploaded.ETag, downloaded.ETag);
        Assert.Equal(content.ToMemory().Length, uploaded.Length);
        Assert.Null(await Client.DownloadAsync(container, "checkpoints/missing.json", _cancellation));
    }

    [Fact]
    public async Task Rewriting_a_blob_gives_it_a_new_version()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);

        var first = await Client.UploadAsync(container, "report.json", BinaryData.FromString("1"), "application/json", _cancellation);
        var second = await Client.UploadAsync(container, "report.json", BinaryData.FromString("22"), "application/json", _cancellation);

        Assert.NotEqual(first.ETag, second.ETag);
        Assert.Equal("22", (await Client.DownloadAsync(container, "report.json", _cancellation))!.Content.ToString());
    }

    [Fact]
    public async Task Properties_give_length_and_version_and_null_for_a_missing_blob()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        var uploaded = await Client.UploadAsync(container, "in/flights.csv", BinaryData.FromBytes(new byte[12_345]), "text/csv", _cancellation);

        var properties = await Client.GetPropertiesAsync(container, "in/flights.csv", _cancellation);

        Assert.Equal(new BlobItem("in/flights.csv", 12_345, uploaded.ETag), properties);
        Assert.Null(await Client.GetPropertiesAsync(container, "in/missing.csv", _cancellation));
        Assert.Null(await Client.GetPropertiesAsync("no-such-container", "in/flights.csv", _cancellation));
    }

    [Fact]
    public async Task Listing_a_prefix_over_several_pages_gives_its_blobs_in_name_order()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        string[] inPrefix = ["logs/2024-01-01.csv", "logs/2024-01-02.csv", "logs/2024-02-01.csv", "logs/a b.csv", "logs/sub/x.csv", "logs/z.csv", "logs/é.csv"];
        string[] outside = ["log.csv", "logs", "other/logs/x.csv", "a.csv"];
        foreach (var (name, index) in inPrefix.Concat(outside).Reverse().Select((name, index) => (name, index)))
        {
            await Client.UploadAsync(container, name, BinaryData.FromBytes(new byte[index + 1]), "text/csv", _cancellation);
        }

        var listed = new List<BlobItem>();
        await foreach (var blob in Client.ListAsync(container, "logs/", pageSize: 2, _cancellation))
        {
            listed.Add(blob);
        }

        Assert.Equal(inPrefix.Order(StringComparer.Ordinal), listed.Select(blob => blob.Name));
        foreach (var blob in listed)
        {
            Assert.Equal(await Client.GetPropertiesAsync(container, blob.Name, _cancellation), blob);
        }
    }

    [Fact]
    public async Task Listing_without_a_prefix_gives_every_blob()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        await Client.UploadAsync(container, "b.csv", BinaryData.FromString("b"), "text/csv", _cancellation);
        await Client.UploadAsync(container, "a.csv", BinaryData.FromString("a"), "text/csv", _cancellation);

        var names = new List<string>();
        await foreach (var blob in Client.ListAsync(container, null, _cancellation))
        {
            names.Add(blob.Name);
        }

        Assert.Equal(["a.csv", "b.csv"], names);
    }

    [Theory]
    [InlineData("dir one/café+x%20y.csv")]
    [InlineData("odd/#hash?query&amp=1;semi.csv")]
    [InlineData("quotes/~tilde'quote(paren)!$dollar,comma=eq@at.csv")]
    public async Task Names_with_characters_urls_escape_are_stored_and_read_back_as_given(string name)
    {
        var container = await fixture.CreateContainerAsync(_cancellation);

        await Client.UploadAsync(container, name, BinaryData.FromString(name), "text/plain", _cancellation);

        Assert.Equal(name, (await Client.DownloadAsync(container, name, _cancellation))!.Content.ToString());
        var listed = new List<string>();
        await foreach (var blob in Client.ListAsync(container, name[..5], _cancellation))
        {
            listed.Add(blob.Name);
        }

        Assert.Equal([name], listed);
    }

    [Fact]
    public async Task A_range_read_gives_the_bytes_at_its_offset_and_nothing_past_the_end()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        var bytes = BlobAzuriteFixture.RandomBytes(10_000, seed: 1);
        var blob = await Client.UploadAsync(container, "data.bin", BinaryData.FromBytes(bytes), "application/octet-stream", _cancellation);
        var buffer = new byte[4_000];

        var middle = await Client.ReadRangeAsync(container, blob.Name, 3_000, buffer, blob.ETag, _cancellation);
        Assert.Equal(4_000, middle);
        Assert.Equal(bytes[3_000..7_000], buffer);

        var tail = await Client.ReadRangeAsync(container, blob.Name, 8_000, buffer, blob.ETag, _cancellation);
        Assert.Equal(2_000, tail);
        Assert.Equal(bytes[8_000..], buffer[..2_000]);

        Assert.Equal(0, await Client.ReadRangeAsync(container, blob.Name, 10_000, buffer, blob.ETag, _cancellation));
    }

    [Fact]
    public async Task A_range_read_of_a_rewritten_blob_says_the_blob_changed()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        var blob = await Client.UploadAsync(container, "data.csv", BinaryData.FromString("first version"), "text/csv", _cancellation);
        await Client.UploadAsync(container, "data.csv", BinaryData.FromString("second version"), "text/csv", _cancellation);

        var exception = await Assert.ThrowsAsync<RequestFailedException>(
            () => Client.ReadRangeAsync(container, blob.Name, 0, new byte[5], blob.ETag, _cancellation));

        Assert.Equal(412, exception.Status);
        Assert.Contains($"reading blob '{container}/data.csv' at offset 0 failed with 412", exception.Message, StringComparison.Ordinal);
        Assert.Contains("The blob changed while it was being read", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_wrong_account_key_is_refused_with_403_and_the_key_is_not_in_the_message()
    {
        var wrongKey = Convert.ToBase64String(BlobAzuriteFixture.RandomBytes(64, seed: 7));
        var connectionString = $"AccountName={StorageConnectionString.DevelopmentAccountName};AccountKey={wrongKey};BlobEndpoint={fixture.Azurite.BlobEndpoint}";
        var client = BlobRestClient.FromConnectionString(connectionString);

        var exception = await Assert.ThrowsAsync<RequestFailedException>(
            () => client.UploadAsync("anything", "x.csv", BinaryData.FromString("x"), "text/csv", _cancellation));

        Assert.Equal(403, exception.Status);
        Assert.StartsWith("uploading blob 'anything/x.csv' failed with 403", exception.Message, StringComparison.Ordinal);
        Assert.Equal("AuthorizationFailure", exception.ErrorCode);
        Assert.DoesNotContain(wrongKey, exception.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain(wrongKey[..16], exception.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_missing_container_in_a_listing_is_an_error_naming_it()
    {
        var exception = await Assert.ThrowsAsync<RequestFailedException>(async () =>
        {
            await foreach (var _ in Client.ListAsync("no-such-container", null, _cancellation))
            {
            }
        });

        Assert.Equal((404, "ContainerNotFound"), (exception.Status, exception.ErrorCode));
        Assert.Contains("listing container 'no-such-container' failed with 404", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_blob_name_with_a_dot_segment_is_refused_before_any_request()
    {
        var exception = await Assert.ThrowsAsync<ArgumentException>(
            () => Client.UploadAsync("input", "a/../b.csv", BinaryData.FromString("x"), "text/csv", _cancellation));

        Assert.Contains("'.' or '..' segment", exception.Message, StringComparison.Ordinal);
    }
}
