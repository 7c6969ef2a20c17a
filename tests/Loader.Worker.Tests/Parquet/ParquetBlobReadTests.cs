using Azure.Core;
using Azure.Core.Pipeline;
using Azure.Storage.Blobs;
using Loader.Worker.Inputs;
using Loader.Worker.Parquet;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Storage.Blobs;

namespace Loader.Worker.Tests.Parquet;

/// <summary>A Parquet blob read on Azurite through <see cref="BlobPart.OpenSeekable"/>: its footer, then each row group, by ranged reads, never the whole blob at once.</summary>
public sealed class ParquetBlobReadTests(BlobAzuriteFixture fixture) : IClassFixture<BlobAzuriteFixture>, IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _folder = new();

    [Fact]
    public async Task A_parquet_blob_is_read_by_ranges_footer_first_and_no_range_holds_the_whole_blob()
    {
        var path = _folder.File("ranged.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 20_000, rowGroupSize: 5_000, _cancellation);
        var container = await fixture.CreateContainerAsync(_cancellation);
        var blob = await fixture.UploadAsync(container, "ranged.parquet", BinaryData.FromBytes(await File.ReadAllBytesAsync(path, _cancellation)), "application/octet-stream", _cancellation);
        var downloads = new DownloadLog();
        var options = new BlobClientOptions();
        options.AddPolicy(downloads, HttpPipelinePosition.PerRetry);
        var client = new BlobServiceClient(fixture.Azurite.ConnectionString, options).GetBlobContainerClient(container).GetBlobClient("ranged.parquet");
        const int bufferSize = 64 * 1024;
        Assert.True(blob.Length > 4 * bufferSize, $"the blob ({blob.Length:N0} bytes) should span several reads of {bufferSize:N0}");

        long rows = 0;
        await using (var reader = await ParquetFileReader.OpenAsync(new BlobPart(client, blob).OpenSeekable(bufferSize), blob.Name, ParquetDecimalMode.String, ".", _cancellation))
        {
            // Opening reads the magic at the head and the footer at the tail: a few ranges, nowhere near the whole blob.
            var opening = downloads.Ranges;
            Assert.Contains(opening, range => range.Start > reader.OffsetOf(reader.RowGroupCount - 1));
            Assert.True(opening.Sum(range => range.Length) <= 3 * bufferSize, $"opening read {opening.Sum(range => range.Length):N0} bytes in {opening.Count} ranges");
            for (var group = 0; group < reader.RowGroupCount; group++)
            {
                using var data = reader.ReadRowGroup(group);
                rows += data.RowCount;
            }
        }

        Assert.Equal(20_000, rows);
        Assert.All(downloads.Ranges, range => Assert.True(range.Length <= bufferSize, $"a read of {range.Length:N0} bytes at {range.Start:N0}: more than {bufferSize:N0} at once"));
        Assert.True(downloads.Ranges.Count > 4, $"{downloads.Ranges.Count} reads");
    }

    public void Dispose() => _folder.Dispose();

    /// <summary>Each blob download's range as the service answered it (Content-Range), seen in the SDK's pipeline.</summary>
    private sealed class DownloadLog : HttpPipelineSynchronousPolicy
    {
        private readonly List<(long Start, long Length)> _ranges = [];

        public IReadOnlyList<(long Start, long Length)> Ranges
        {
            get
            {
                lock (_ranges)
                {
                    return [.. _ranges];
                }
            }
        }

        public override void OnReceivedResponse(HttpMessage message)
        {
            if (message.Request.Method == RequestMethod.Get && message.Response.Headers.TryGetValue("Content-Range", out var range))
            {
                // "bytes 100-199/1000"
                var span = range!["bytes ".Length..range.IndexOf('/', StringComparison.Ordinal)].Split('-');
                var start = long.Parse(span[0], System.Globalization.CultureInfo.InvariantCulture);
                lock (_ranges)
                {
                    _ranges.Add((start, long.Parse(span[1], System.Globalization.CultureInfo.InvariantCulture) - start + 1));
                }
            }
        }
    }
}
