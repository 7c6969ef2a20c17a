using System.Globalization;
using System.Text;
using Azure.Storage.Blobs;
using Azure.Storage.Queues;
using Loader.Worker.Checkpoints;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Shards;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Shards;

/// <summary>
/// A sharded load as users run it, each verb its own process, on Azurite's Queue, Blob and Table services: plan, three
/// work processes, status. The table is read back and compared with the input; a worker is killed mid-shard and another
/// resumes the shard from its checkpoint; a shard that always fails ends in the poison queue.
/// </summary>
public sealed class ShardedLoadTests : IDisposable
{
    private const string StateContainer = "state";
    private const string InputContainer = "input";
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(10);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>
    /// Range shards over a prefix of two blobs, the larger cut into byte ranges: every row is written or superseded once,
    /// status reconciles, and every key holds the last row of a shard that has it (the last row of the input when one
    /// shard has all its rows, which is the guarantee docs/scale-out.md states for range shards).
    /// </summary>
    [Fact]
    public async Task Three_workers_load_range_shards_of_a_skewed_prefix_and_the_table_equals_the_input()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        var flights = SkewedFlights.Write(_directory, 30_000);
        var parts = await UploadInTwoPartsAsync(azurite, flights, "flights/");
        var settings = Settings(azurite, flights, $"{azurite.BlobEndpoint}/{InputContainer}/flights/", "range");
        settings["Loader:Shards:By"] = "Range";
        settings["Loader:Shards:TargetBytes"] = "400000";

        var (planExit, planOutput) = await RunAsync("plan", settings);
        Assert.True(planExit == ExitCodes.Success, planOutput);
        var (againExit, againOutput) = await RunAsync("plan", settings);
        Assert.True(againExit == ExitCodes.Success, againOutput);
        Assert.Contains("0 shard(s) enqueued now", againOutput, StringComparison.Ordinal);
        var manifest = (await ReadJsonAsync<LoadManifest>(azurite, "range/manifest.json"))!;
        Assert.True(manifest.Shards.Count >= 5, $"the plan cut {manifest.Shards.Count} shards");
        Assert.Equal(manifest.Shards.Count, await QueueCountAsync(azurite, "range-shards"));

        await RunWorkersAsync(settings, 3);

        var (statusExit, statusOutput) = await RunAsync("status", settings);
        Assert.True(statusExit == ExitCodes.Success, statusOutput);
        Assert.Contains("COMPLETE, reconciled", statusOutput, StringComparison.Ordinal);
        Assert.Contains($"{manifest.Shards.Count} done, 0 running, 0 waiting, 0 poisoned", statusOutput, StringComparison.Ordinal);
        Assert.Contains($"rows         {flights.Rows:N0} = ", statusOutput, StringComparison.Ordinal);

        var shards = ShardedRows.Of(parts, manifest);
        Assert.Equal(flights.Rows, shards.Rows);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, settings["Loader:Tables:Table"]!, _cancellation);
        var acrossShards = shards.AssertTableHolds(stored);
        Measurements.Record(string.Create(CultureInfo.InvariantCulture,
            $"Sharded load: {flights.Rows:N0} skewed rows in {parts.Count} blobs, {manifest.Shards.Count} range shards, 3 work processes: the table equals the input ({acrossShards} key(s) with rows in two shards hold one shard's last row)"));
    }

    /// <summary>Key shards: every worker reads the whole input and writes its bucket of partition keys, so the later row wins per key across the load.</summary>
    [Fact]
    public async Task Three_workers_load_key_shards_and_the_later_row_wins_across_the_whole_input()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        var flights = SkewedFlights.Write(_directory, 15_000, seed: 11);
        var settings = Settings(azurite, flights, flights.Path, "key");
        settings["Loader:Shards:By"] = "Key";
        settings["Loader:Shards:Count"] = "3";

        // A single load's HTML report at the input's own path would be refused; no shard writes one, so no shard minds it.
        settings["Loader:HtmlReportPath"] = flights.Path;

        var (planExit, planOutput) = await RunAsync("plan", settings);
        Assert.True(planExit == ExitCodes.Success, planOutput);
        await RunWorkersAsync(settings, 3);

        var (statusExit, statusOutput) = await RunAsync("status", settings);
        Assert.True(statusExit == ExitCodes.Success, statusOutput);
        Assert.Contains("COMPLETE, reconciled", statusOutput, StringComparison.Ordinal);
        Assert.Contains($"rows         {flights.Rows:N0} = ", statusOutput, StringComparison.Ordinal);
        flights.AssertTableEquals(await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, settings["Loader:Tables:Table"]!, _cancellation));
    }

    /// <summary>
    /// SIGKILL of a worker mid-shard: its shard shows in the queue again after the visibility timeout, another worker
    /// takes it and resumes from the shard's checkpoint. Nothing is lost, the other shards are not touched again, and
    /// the rows sent again are within the killed shard's rows its checkpoint did not show settled.
    /// </summary>
    /// <summary>
    /// The shard's checkpoint as the killed worker left it: a write it had sent before the kill may still be stored by
    /// Azurite after the kill, so the blob is read until it stays the same for a second. No one else writes it until
    /// the shard is taken again, after its visibility timeout.
    /// </summary>
    private async Task<Checkpoint> CheckpointAfterKillAsync(AzuriteProcess azurite, string shardId)
    {
        var path = $"kill/shards/{shardId}/checkpoint.json";
        var last = (await ReadJsonAsync<Checkpoint>(azurite, path))!;
        while (true)
        {
            await Task.Delay(TimeSpan.FromSeconds(1), _cancellation);
            var now = (await ReadJsonAsync<Checkpoint>(azurite, path))!;
            if (now.UpdatedAt == last.UpdatedAt)
            {
                return now;
            }

            last = now;
        }
    }

    [Fact]
    public async Task A_worker_killed_mid_shard_gives_its_shard_back_and_another_resumes_it_from_its_checkpoint()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        var flights = SkewedFlights.Write(_directory, 45_000, seed: 5);
        var parts = await UploadInTwoPartsAsync(azurite, flights, "kill/", split: 1.0);
        var settings = Settings(azurite, flights, $"{azurite.BlobEndpoint}/{InputContainer}/kill/", "kill");
        settings["Loader:Shards:By"] = "Range";
        settings["Loader:Shards:TargetBytes"] = "1000000";
        settings["Loader:CheckpointInterval"] = "00:00:01";
        var (planExit, planOutput) = await RunAsync("plan", settings);
        Assert.True(planExit == ExitCodes.Success, planOutput);
        var manifest = (await ReadJsonAsync<LoadManifest>(azurite, "kill/manifest.json"))!;

        var workers = Enumerable.Range(0, 3).Select(_ => LoaderProcess.Start("work", settings)).ToList();
        try
        {
            // A shard well under way, with a checkpoint: its worker is killed.
            var (victim, shard) = await ShardUnderWayAsync(azurite, manifest, workers, minimumRecord: 3_000);
            await victim.KillAsync();
            var killedAt = DateTimeOffset.UtcNow;
            var checkpoint = await CheckpointAfterKillAsync(azurite, shard.Id);
            var shardRows = ShardedRows.Of(parts, manifest);
            var storedAtKill = shardRows.StoredOf(shard.Id, await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, settings["Loader:Tables:Table"]!, _cancellation));

            foreach (var worker in workers.Where(worker => worker != victim))
            {
                var exit = await worker.WaitForExitAsync(s_timeout, _cancellation);
                Assert.True(exit == ExitCodes.Success, worker.Output);
            }

            var (statusExit, statusOutput) = await RunAsync("status", settings);
            Assert.True(statusExit == ExitCodes.Success, statusOutput);
            Assert.Contains("COMPLETE, reconciled", statusOutput, StringComparison.Ordinal);
            shardRows.AssertTableHolds(await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, settings["Loader:Tables:Table"]!, _cancellation));

            var state = (await ReadJsonAsync<ShardState>(azurite, $"kill/shards/{shard.Id}/state.json"))!;
            var report = (await ReadJsonAsync<LoadReport>(azurite, $"kill/shards/{shard.Id}/report.json"))!;
            Assert.Equal(2, state.Attempts);
            Assert.NotEqual($"{Environment.MachineName}/{victim.Id}", state.Worker);
            var returnedAfter = state.StartedAt!.Value - killedAt;
            Assert.True(returnedAfter > TimeSpan.FromSeconds(5), $"the shard was taken again {returnedAfter.TotalSeconds:0.0} s after the kill, before its lease and message could have lapsed");

            var pending = checkpoint.Pending.Sum(range => range[1] - range[0] + 1);
            var skips = checkpoint.ReadUpTo >= checkpoint.NextRecord ? checkpoint.ReadUpTo - pending : checkpoint.NextRecord - 1;
            Assert.Equal(skips, report.RowsSkipped);
            Assert.Equal(checkpoint.NextRecord, report.ResumedAtRecord);
            var rowsOfShard = shardRows.RowsOf(shard.Id);
            var unsettled = rowsOfShard - skips;
            // Rows settled at the kill: the shard's keys stored, plus at most its rows that repeat an earlier key.
            var resent = Math.Max(0, storedAtKill + shardRows.DuplicateRowsOf(shard.Id) - skips);
            Assert.True(resent <= unsettled, $"the resumed shard re-sent up to {resent:N0} rows, more than the {unsettled:N0} its checkpoint did not show settled");
            foreach (var other in manifest.Shards.Where(other => other.Id != shard.Id))
            {
                var otherState = (await ReadJsonAsync<ShardState>(azurite, $"kill/shards/{other.Id}/state.json"))!;
                Assert.True(otherState.Attempts == 1, $"shard {other.Id} was worked {otherState.Attempts} times");
            }

            Measurements.Record(string.Create(CultureInfo.InvariantCulture,
                $"Sharded load, SIGKILL of a worker on shard {shard.Id} ({rowsOfShard:N0} of {flights.Rows:N0} rows, {manifest.Shards.Count} shards): taken again {returnedAfter.TotalSeconds:0.0} s later (visibility timeout {settings["Loader:Shards:VisibilityTimeout"]}), resumed at record {checkpoint.NextRecord:N0} with {pending:N0} pending; skipped {skips:N0}, re-sent at most {resent:N0} rows already stored (bound: the shard's {unsettled:N0} unsettled rows); table equals the input"));
        }
        finally
        {
            foreach (var worker in workers)
            {
                await worker.DisposeAsync();
            }
        }
    }

    /// <summary>A shard that fails every time (a truncated .gz blob) moves to the poison queue after Loader:Shards:MaxDequeues tries, and status says so.</summary>
    [Fact]
    public async Task A_shard_that_always_fails_ends_in_the_poison_queue_and_status_says_so()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        var container = new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient(InputContainer);
        await container.CreateIfNotExistsAsync(cancellationToken: _cancellation);
        var good = new StringBuilder("pk,rk,n,note\n");
        var bad = new StringBuilder("pk,rk,n,note\n");
        for (var i = 0; i < 2_000; i++)
        {
            good.Append(CultureInfo.InvariantCulture, $"p{i % 7},g{i:D5},{i},good\n");
            // Random text compresses little: the cut lands many deflate blocks after the header, which plan reads.
            bad.Append(CultureInfo.InvariantCulture, $"p{i % 7},b{i:D5},{i},{Guid.NewGuid():N}{Guid.NewGuid():N}\n");
        }

        var gzip = Compressed.Bytes(InputCompression.Gzip, Encoding.UTF8.GetBytes(bad.ToString()));
        await container.GetBlobClient("poison/1-good.csv").UploadAsync(BinaryData.FromString(good.ToString()), _cancellation);
        await container.GetBlobClient("poison/2-bad.csv.gz").UploadAsync(BinaryData.FromBytes(gzip.AsMemory(0, gzip.Length * 9 / 10)), _cancellation);
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = $"{azurite.BlobEndpoint}/{InputContainer}/poison/",
            ["Loader:Blob:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("poison"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
        };
        AddShardSettings(settings, azurite, "poison");
        settings["Loader:Shards:By"] = "Range";
        settings["Loader:Shards:MaxDequeues"] = "2";

        var (planExit, planOutput) = await RunAsync("plan", settings);
        Assert.True(planExit == ExitCodes.Success, planOutput);
        var workers = Enumerable.Range(0, 2).Select(_ => LoaderProcess.Start("work", settings)).ToList();
        var exits = new List<int>();
        foreach (var worker in workers)
        {
            await using (worker)
            {
                exits.Add(await worker.WaitForExitAsync(s_timeout, _cancellation));
            }
        }

        // The worker that moved the shard says so with exit 1; the other found the queue empty.
        Assert.Contains(ExitCodes.RowsFailed, exits);
        var (statusExit, statusOutput) = await RunAsync("status", settings);
        Assert.Equal(ExitCodes.RowsFailed, statusExit);
        Assert.Contains("POISONED SHARDS", statusOutput, StringComparison.Ordinal);
        Assert.Contains("1 done, 0 running, 0 waiting, 1 poisoned", statusOutput, StringComparison.Ordinal);
        Assert.Contains("poison queue: 1", statusOutput, StringComparison.Ordinal);
        Assert.Matches("s0002 +poisoned .*2-bad\\.csv\\.gz.*failed 2 times", statusOutput);
        Assert.Equal(1, await QueueCountAsync(azurite, "poison-shards-poison"));
        Assert.Equal(0, await QueueCountAsync(azurite, "poison-shards"));
        var stored = await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, settings["Loader:Tables:Table"]!, _cancellation);
        Assert.Equal(2_000, stored.Keys.Count(key => key.Item2.StartsWith('g')));
    }

    private static Dictionary<string, string?> Settings(AzuriteProcess azurite, SkewedFlights flights, string input, string load)
    {
        var settings = flights.Settings(azurite.ConnectionString, AzuriteFixture.UniqueTableName(load));
        settings["Loader:Input"] = input;
        settings["Loader:Blob:ConnectionString"] = azurite.ConnectionString;
        AddShardSettings(settings, azurite, load);
        return settings;
    }

    private static void AddShardSettings(Dictionary<string, string?> settings, AzuriteProcess azurite, string load)
    {
        settings["Loader:Shards:State"] = $"{azurite.BlobEndpoint}/{StateContainer}/{load}/";
        settings["Loader:Shards:Queue"] = $"{azurite.QueueEndpoint}/{load}-shards";
        settings["Loader:Shards:VisibilityTimeout"] = "00:00:20"; // the shortest: a lease of 15 s
        settings["Loader:Shards:RetryDelay"] = "00:00:00";
        settings["Loader:Shards:PollInterval"] = "00:00:01";
        settings["Loader:LogFormat"] = "Text";
    }

    /// <summary>The input as blobs under a prefix: the first <paramref name="split"/> of its rows, then the rest, each with the header.</summary>
    private async Task<IReadOnlyList<(string Name, byte[] Bytes)>> UploadInTwoPartsAsync(AzuriteProcess azurite, SkewedFlights flights, string prefix, double split = 2.0 / 3)
    {
        var lines = await File.ReadAllLinesAsync(flights.Path, _cancellation);
        var header = lines[0];
        var cut = 1 + (int)((lines.Length - 1) * split);
        var parts = new List<(string, byte[])> { ("part-1.csv", Lines(header, lines[1..cut])) };
        if (cut < lines.Length)
        {
            parts.Add(("part-2.csv", Lines(header, lines[cut..])));
        }

        var container = new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient(InputContainer);
        await container.CreateIfNotExistsAsync(cancellationToken: _cancellation);
        foreach (var (name, bytes) in parts)
        {
            await container.GetBlobClient(prefix + name).UploadAsync(BinaryData.FromBytes(bytes), _cancellation);
        }

        return [.. parts.Select(part => (prefix + part.Item1, part.Item2))];
    }

    private static byte[] Lines(string header, IEnumerable<string> rows) =>
        Encoding.UTF8.GetBytes(string.Concat(new[] { header }.Concat(rows).Select(line => line + "\n")));

    private async Task RunWorkersAsync(Dictionary<string, string?> settings, int count)
    {
        var workers = Enumerable.Range(0, count).Select(_ => LoaderProcess.Start("work", settings)).ToList();
        foreach (var worker in workers)
        {
            await using (worker)
            {
                var exit = await worker.WaitForExitAsync(s_timeout, _cancellation);
                Assert.True(exit == ExitCodes.Success, worker.Output);
            }
        }
    }

    private async Task<(int ExitCode, string Output)> RunAsync(string verb, Dictionary<string, string?> settings)
    {
        await using var process = LoaderProcess.Start(verb, settings);
        var exit = await process.WaitForExitAsync(s_timeout, _cancellation);
        return (exit, process.Output);
    }

    /// <summary>Waits for a shard whose checkpoint is past <paramref name="minimumRecord"/> while its worker still runs it.</summary>
    private async Task<(LoaderProcess Worker, ShardSpec Shard)> ShardUnderWayAsync(AzuriteProcess azurite, LoadManifest manifest, List<LoaderProcess> workers, long minimumRecord)
    {
        while (true)
        {
            foreach (var spec in manifest.Shards)
            {
                var state = await ReadJsonAsync<ShardState>(azurite, $"kill/shards/{spec.Id}/state.json");
                var checkpoint = await ReadJsonAsync<Checkpoint>(azurite, $"kill/shards/{spec.Id}/checkpoint.json");
                if (state is { Status: ShardStatus.Running } && checkpoint is { Completed: false } && checkpoint.NextRecord > minimumRecord
                    && workers.FirstOrDefault(worker => state.Worker == $"{Environment.MachineName}/{worker.Id}") is { HasExited: false } worker)
                {
                    return (worker, spec);
                }
            }

            Assert.False(workers.All(worker => worker.HasExited), "every worker exited before a shard was under way:" + Environment.NewLine + workers[0].Output);
            await Task.Delay(100, _cancellation);
        }
    }

    private async Task<T?> ReadJsonAsync<T>(AzuriteProcess azurite, string path)
        where T : class
    {
        var blob = new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient(StateContainer).GetBlobClient(path);
        try
        {
            return (await blob.DownloadContentAsync(_cancellation)).Value.Content.ToObjectFromJson<T>(ReportWriter.JsonOptions);
        }
        catch (Azure.RequestFailedException exception) when (exception.Status == 404)
        {
            return null;
        }
    }

    private async Task<int> QueueCountAsync(AzuriteProcess azurite, string queue) =>
        (await new QueueClient(azurite.ConnectionString, queue).GetPropertiesAsync(_cancellation)).Value.ApproximateMessagesCount;
}
