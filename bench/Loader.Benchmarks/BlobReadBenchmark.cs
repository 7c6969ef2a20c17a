using System.Diagnostics;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Loader.Worker.Csv;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// Whether the loader's read-ahead blob stream (<see cref="BlobReadStream"/>: the next ranged block fetched while one
/// is parsed) earns its place against the SDK's own <c>BlobClient.OpenReadAsync</c>
/// (one block at a time, pinned to the same ETag): the generated CSV uploaded to Azurite, then parsed by the loader's
/// CSV reader from each stream in turns, with the same block size.
/// </summary>
internal sealed class BlobReadBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "blobread";

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command, Invariant($"# Blob input: read-ahead stream against the SDK's OpenRead, {settings.Rows:N0} rows, {settings.Repeat} runs of each"), settings, output, cancellationToken);
        await using var azurite = await AzuriteProcess.StartAsync(withBlob: true, cancellationToken: cancellationToken);
        var container = new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient("input");
        await container.CreateIfNotExistsAsync(cancellationToken: cancellationToken);
        var client = container.GetBlobClient("flights.csv");
        await using (var file = File.OpenRead(bench.Csv))
        {
            await client.UploadAsync(file, overwrite: true, cancellationToken);
        }

        var properties = (await client.GetPropertiesAsync(cancellationToken: cancellationToken)).Value;
        var blob = InputBlob.Of("flights.csv", properties.ContentLength, properties.ETag);
        var blockSize = new BlobOptions().ReadBlockSize;
        output.WriteLine(Invariant($"- blob: {blob.Length / 1048576.0:N1} MiB in Azurite, blocks of {blockSize / 1048576.0:N0} MiB"));
        output.WriteLine();

        var readers = new (string Name, Func<Task<Stream>> Open)[]
        {
            ("read-ahead (BlobReadStream)", () => Task.FromResult<Stream>(new BlobReadStream(client, blob, blockSize))),
            ("SDK OpenReadAsync", async () => await client.OpenReadAsync(
                new BlobOpenReadOptions(allowModifications: false) { BufferSize = blockSize, Conditions = new BlobRequestConditions { IfMatch = blob.ETag } },
                cancellationToken)),
        };
        var seconds = readers.ToDictionary(reader => reader.Name, _ => new List<double>());
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            foreach (var (name, open) in repeat % 2 == 1 ? readers : readers.Reverse())
            {
                var clock = Stopwatch.StartNew();
                var records = 0L;
                await using (var stream = await open())
                using (var reader = CsvRecordReader.Open(stream, new CsvOptions()))
                {
                    foreach (var _ in reader.ReadAll(csv => 0, parallelism: 1))
                    {
                        records++;
                    }
                }

                if (records != settings.Rows)
                {
                    output.WriteLine(Invariant($"INVALID: {name} read {records:N0} records of {settings.Rows:N0}"));
                    return BenchExitCodes.Invalid;
                }

                seconds[name].Add(clock.Elapsed.TotalSeconds);
            }
        }

        var table = new MarkdownTable("stream", "seconds (median)", "MiB/s (median)", "rows/s (median)", "runs");
        foreach (var (name, runs) in seconds)
        {
            var median = Statistics.Median(runs);
            table.Add(name, Format.Number(median, 2), Format.Number(blob.Length / 1048576.0 / median, 1), Format.Number(settings.Rows / median), string.Join(" ", runs.Select(s => Invariant($"{s:N2}"))));
        }

        table.Write(output);
        bench.Finish(loadAverage => new { bench.StartedAt, bench.Machine, settings, bench.CommandLine, Seconds = seconds, LoadAverageAtEnd = loadAverage });
        return BenchExitCodes.TargetsMet;
    }
}
