using System.Globalization;
using System.Text;
using Loader.ThrottlingSimulator;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Verdict;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Each verdict of the report, produced on purpose by a whole load that something is made to hold: the throttling
/// simulator's request-unit budget, its budget per partition with a skewed file, its added latency, its injected faults,
/// an input that comes slowly through a named pipe, and a dry run, which leaves only the loader's own work. Each load is
/// held by its limit for seconds, far past what a busy machine's noise moves, and the verdict's thresholds sit well away
/// from what such a load shows of the other limits (docs/what-limited-a-load.md).
/// </summary>
public sealed class WhatLimitedTheLoadTests(AzuriteFixture azurite) : IAsyncDisposable, IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly SimulatedTables _tables = new(azurite);

    public void Dispose() => _directory.Dispose();

    public ValueTask DisposeAsync() => _tables.DisposeAsync();

    [Fact]
    public async Task A_load_the_service_throttles_across_its_partitions_is_limited_by_the_request_unit_budget()
    {
        // 2,000 rows of 5 RU each over 40 keys against 2,500 RU/s: about four seconds at the budget, whatever the machine.
        var settings = await ThroughSimulatorAsync(new SimulatorOptions { RuPerSecond = 2_500, BurstSeconds = 1 }, SimulatedTables.Rows(2_000, i => $"p{i % 40}"));

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var verdict = VerdictOf(report, LimitKind.RequestBudget);
        Assert.StartsWith("The service's request-unit budget limited the load: ", verdict.Sentence, StringComparison.Ordinal);
        Assert.True(Figure(verdict, "pacedShare") >= LoadVerdict.PacedShareAtLeast || Figure(verdict, "throttledShare") >= LoadVerdict.ThrottledShareAtLeast, verdict.Sentence);
        Assert.Equal(report.ThrottledShare, Figure(verdict, "throttledShare"), 3);
        Assert.True(report.TimeBreakdown!.PacedSeconds + report.TimeBreakdown.ThrottledBackoffSeconds > 1, $"{report.TimeBreakdown}");
        AssertSummaryEndsWith(run.Summary, verdict);
    }

    [Fact]
    public async Task A_skewed_file_whose_big_partition_its_own_budget_throttles_is_limited_by_that_hot_partition()
    {
        // 1,000 rows of partition HOT (5,000 RU against 1,000 RU/s for each partition: four seconds of its batches, one after
        // another) among 400 rows of 40 cold partitions that never meet their budget.
        var csv = SimulatedTables.Rows(1_400, i => i % 7 < 5 ? "HOT" : $"cold{i % 40:D2}");
        var settings = await ThroughSimulatorAsync(new SimulatorOptions { RuPerSecond = 0, PartitionRuPerSecond = 1_000, BurstSeconds = 1 }, csv);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var verdict = VerdictOf(report, LimitKind.HotPartition);
        Assert.StartsWith("One hot partition limited the load: partition 'HOT' (1,000 rows in 10 batches, ", verdict.Sentence, StringComparison.Ordinal);
        Assert.True(Figure(verdict, "heldShare") >= LoadVerdict.HeldShareAtLeast);
        var partitions = report.Partitions!;
        Assert.Equal((41L, false), (partitions.Count, partitions.Estimated));
        var hot = partitions.Top[0];
        Assert.Equal(("HOT", 1_000L, 0L, 10L), (hot.PartitionKey, hot.Rows, hot.RowsError, hot.Batches));
        Assert.Equal(report.Throttled, hot.Throttled); // only HOT met its budget
        Assert.True(hot.BackoffSeconds > 1, $"{hot}");
        Assert.Equal(20, partitions.Top.Count);
        Assert.All(partitions.Top.Skip(1), cold => Assert.Equal((10L, 1L, 0L), (cold.Rows, cold.Batches, cold.Throttled)));
        // Rows per partition: 40 partitions of 10 rows (8–15), one of 1,000 (512–1,023).
        Assert.Equal([(8L, 40L, 400L), (16, 0, 0), (32, 0, 0), (64, 0, 0), (128, 0, 0), (256, 0, 0), (512, 1, 1_000)], partitions.RowsPerPartition.Select(bucket => (bucket.FromRows, bucket.Partitions, bucket.Rows)));
    }

    /// <summary>
    /// The loader runs as its own process here, so the cores it keeps busy are its own: in the test process other tests'
    /// work would count as the loader's, and a load whose slots are full with the cores busy is the loader's CPU.
    /// </summary>
    [Fact]
    public async Task A_load_whose_slots_stay_full_of_slow_answers_is_limited_by_the_services_latency()
    {
        // 60 batches of 100 rows, four at a time, each held 200 ms by the service: three seconds with every slot taken. The
        // longer the service holds each, the less the loader's own moments between two requests weigh on a busy machine;
        // the rows come key by key, so the first batch is full, and leaves, as soon as its rows are read.
        var settings = await ThroughSimulatorAsync(new SimulatorOptions { RuPerSecond = 0, LatencyMs = 200 }, SimulatedTables.Rows(6_000, i => $"p{i / 100:D2}"));
        settings["Loader:Concurrency"] = "Fixed";
        settings["Loader:MaxParallelBatches"] = "4";
        settings["Loader:ReportPath"] = _directory.File("report.json");
        settings["Loader:LogFormat"] = "Text";

        await using var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(3), _cancellation);

        Assert.True(exitCode == ExitCodes.Success, loader.Output);
        var report = ReportWriter.Read(settings["Loader:ReportPath"]!);
        var verdict = VerdictOf(report, LimitKind.ServiceLatency);
        Assert.StartsWith("The service's latency at the concurrency allowed limited the load: requests at the service filled ", verdict.Sentence, StringComparison.Ordinal);
        Assert.Contains("of the 4.0 batches allowed in flight on average (Fixed, at most 4)", verdict.Sentence, StringComparison.Ordinal);
        Assert.True(Figure(verdict, "slotUse") >= LoadVerdict.SlotUseAtLeast);
        Assert.True(Figure(verdict, "latencyP50Ms") >= 200);
        Assert.Contains($"  limited by       {verdict.Sentence}", loader.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_dry_run_which_leaves_only_the_loaders_own_work_is_limited_by_its_CPU()
    {
        var csv = new CsvText("pk", "rk", "n", "x", "when", "flag", "note");
        for (var i = 0; i < 300_000; i++)
        {
            csv.Row($"p{i % 997}", $"r{i:D7}", i, i * 0.5, "2026-11-25T10:00:00Z", i % 2 == 0 ? "true" : "false", "some text of a flight");
        }

        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("cpu"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Columns:n"] = "Int32",
            ["Loader:Columns:x"] = "Double",
            ["Loader:Columns:when"] = "DateTime",
            ["Loader:Columns:flag"] = "Boolean",
            ["Loader:DryRun"] = "true",
        };

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(300_000, report.RowsWritten);
        var verdict = VerdictOf(report, LimitKind.LoaderCpu);
        Assert.StartsWith("The loader's CPU limited the load: ", verdict.Sentence, StringComparison.Ordinal);
        Assert.Equal(0, report.TimeBreakdown!.ThrottledBackoffSeconds + report.TimeBreakdown.FaultBackoffSeconds + report.TimeBreakdown.PacedSeconds);
        AssertSummaryEndsWith(run.Summary, verdict);
    }

    [Fact]
    public async Task A_load_of_a_named_pipe_that_a_slow_writer_fills_is_limited_by_reading_the_input()
    {
        var fifo = await NamedPipe.CreateAsync(_directory.File("flights.fifo"), _cancellation);

        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = fifo,
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("pipe"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
        };
        // 40 chunks of 100 rows, one every 100 ms: the input takes four seconds to come, whatever the loader does. Five
        // keys, so what is left to send when it ends (a partial batch of each) goes at once.
        var lines = SimulatedTables.Rows(4_000, i => $"p{i % 5}").Split('\n');
        var writer = Task.Run(async () =>
        {
            await using var pipe = new FileStream(fifo, FileMode.Open, FileAccess.Write);
            await pipe.WriteAsync(Encoding.UTF8.GetBytes(lines[0] + "\n"), _cancellation);
            foreach (var chunk in lines.Skip(1).Where(line => line.Length > 0).Chunk(100))
            {
                await Task.Delay(100, _cancellation);
                await pipe.WriteAsync(Encoding.UTF8.GetBytes(string.Join('\n', chunk) + "\n"), _cancellation);
                await pipe.FlushAsync(_cancellation);
            }
        }, _cancellation);

        var run = await LoaderRunner.RunAsync(settings, _cancellation).WaitAsync(TimeSpan.FromMinutes(2), _cancellation);
        await writer;

        var report = run.RequireReport();
        Assert.Equal(4_000, report.RowsWritten);
        var verdict = VerdictOf(report, LimitKind.Input);
        Assert.StartsWith("Reading the input limited the load: the read thread worked ", verdict.Sentence, StringComparison.Ordinal);
        Assert.Contains("of it waiting for the bytes of a named pipe", verdict.Sentence, StringComparison.Ordinal);
        Assert.True(report.TimeBreakdown!.InputSeconds >= 3.5, $"{report.TimeBreakdown}");
        AssertSummaryEndsWith(run.Summary, verdict);
    }

    [Fact]
    public async Task A_load_a_third_of_whose_batches_get_no_answer_is_limited_by_the_retries()
    {
        // Three batches in ten lose their connection without an answer (a 500 OperationTimedOut or a 503 would be Table
        // Storage throttling), each retried after a back-off from 0.3 s: most of the batches' time goes to the faults.
        var settings = await ThroughSimulatorAsync(new SimulatorOptions { RuPerSecond = 0, DropRate = 0.3, Seed = 5 }, SimulatedTables.Rows(3_000, i => $"p{i % 30:D2}"));
        settings["Loader:Retry:BaseDelay"] = "00:00:00.3";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var counted = _tables.Simulator.Stats.Snapshot();
        Assert.Equal((3_000L, 0L), (report.RowsWritten, report.RowsFailed));
        var verdict = VerdictOf(report, LimitKind.FaultRetries);
        Assert.StartsWith("Retries after faults limited the load: ", verdict.Sentence, StringComparison.Ordinal);
        Assert.True(counted.Dropped > 0);
        Assert.Equal(counted.Dropped, Figure(verdict, "retriesAfterFaults")); // each fault retried once
        Assert.True(report.TimeBreakdown!.FaultBackoffSeconds > 0.3, $"{report.TimeBreakdown}");
        AssertSummaryEndsWith(run.Summary, verdict);
    }

    private async Task<Dictionary<string, string?>> ThroughSimulatorAsync(SimulatorOptions options, string csv)
    {
        await _tables.StartAsync(options, _cancellation);
        return new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv),
            ["Loader:Tables:ConnectionString"] = _tables.ConnectionString,
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("verdict"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Retry:BaseDelay"] = "00:00:00.02",
        };
    }

    /// <summary>The report's verdict, which must be <paramref name="kind"/> and decisive; the message says what it was instead.</summary>
    private static LimitVerdict VerdictOf(LoadReport report, LimitKind kind)
    {
        var verdict = report.Verdict ?? throw new Xunit.Sdk.XunitException("the report has no verdict");
        Assert.True(verdict.Kind == kind && verdict.Decisive, $"expected a decisive {kind}, got: {verdict.Kind} ({(verdict.Decisive ? "decisive" : "not decisive")}) {verdict.Sentence}{Environment.NewLine}{report.TimeBreakdown}");
        Measurements.Record(string.Create(CultureInfo.InvariantCulture, $"{kind}: {verdict.Sentence}"));
        return verdict;
    }

    private static double Figure(LimitVerdict verdict, string name) =>
        verdict.Evidence.SingleOrDefault(evidence => evidence.Name == name)?.Value ?? throw new Xunit.Sdk.XunitException($"the verdict has no figure {name}: {string.Join(", ", verdict.Evidence.Select(evidence => evidence.Name))}");

    private static void AssertSummaryEndsWith(string summary, LimitVerdict verdict) =>
        Assert.EndsWith($"  limited by       {verdict.Sentence}", summary.TrimEnd(), StringComparison.Ordinal);
}
