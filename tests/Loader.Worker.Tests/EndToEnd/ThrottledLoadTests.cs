using Loader.ThrottlingSimulator;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Verdict;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Whole loads through the throttling simulator in front of a real Azurite: the service sets the pace (429 with
/// retry-after, 503s, per-partition budgets) and the loader must ride it without losing a row, reporting exactly
/// what the service did.
/// </summary>
public sealed class ThrottledLoadTests(AzuriteFixture azurite) : IAsyncDisposable, IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly SimulatedTables _tables = new(azurite);

    public void Dispose() => _directory.Dispose();

    public ValueTask DisposeAsync() => _tables.DisposeAsync();

    private async Task<Dictionary<string, string?>> SettingsAsync(SimulatorOptions simulator, string csv, string table)
    {
        await _tables.StartAsync(simulator, _cancellation);
        return new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv),
            ["Loader:Tables:ConnectionString"] = _tables.ConnectionString,
            ["Loader:Tables:Table"] = table,
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Retry:BaseDelay"] = "00:00:00.02",
            ["Loader:ProgressInterval"] = "00:00:01",
        };
    }

    [Fact]
    public async Task A_throttled_load_loses_nothing_and_reports_exactly_the_429s_and_request_units_the_service_counted()
    {
        var table = AzuriteFixture.UniqueTableName();
        var settings = await SettingsAsync(new SimulatorOptions { RuPerSecond = 2_500, BurstSeconds = 1 }, SimulatedTables.Rows(3_000, i => $"p{i % 40}"), table);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var counted = _tables.Simulator.Stats.Snapshot();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((3_000L, 0L), (report.RowsWritten, report.RowsFailed));
        Assert.True(counted.Throttled > 0, "the budget should have been hit");
        Assert.Equal(counted.Throttled, report.Throttled);
        Assert.Equal(counted.RequestChargeTotal, report.RequestCharge);
        Assert.Equal(counted.Requests, report.Requests);
        Assert.Equal(3_000, (await azurite.ReadTableAsync(table, _cancellation)).Count);
        Assert.NotNull(report.PacedRequestUnitsPerSecond); // the pace was learned from the 429s
    }

    /// <summary>
    /// A fifth of the batches are held three times longer than the loader waits for an answer, as a slow service or a
    /// distant region does. Each such attempt ends without an answer and is retried: no row fails, and the report
    /// counts a retry for every batch the service held past the loader's patience.
    /// </summary>
    [Fact]
    public async Task A_service_that_answers_later_than_the_attempt_timeout_loses_no_row()
    {
        var flights = SkewedFlights.Write(_directory, 10_000);
        var table = AzuriteFixture.UniqueTableName("slow");
        await _tables.StartAsync(new SimulatorOptions { RuPerSecond = 0, HoldRate = 0.2, HoldMs = 3_000, Seed = 11 }, _cancellation);
        var settings = flights.Settings(_tables.ConnectionString, table);
        settings["Loader:Retry:AttemptTimeout"] = "00:00:01";
        settings["Loader:Retry:BaseDelay"] = "00:00:00.02";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var counted = _tables.Simulator.Stats.Snapshot();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(0, report.RowsFailed);
        Assert.Empty(report.Errors);
        Assert.True(counted.Abandoned > 0, "some batches should have been held past the timeout");
        Assert.Equal(counted.Abandoned, report.Retries);
        flights.AssertTableEquals(await azurite.ReadTableAsync(table, _cancellation));
    }

    [Fact]
    public async Task When_the_retry_budget_is_spent_the_rows_fail_with_the_services_answer_and_the_exit_code_says_so()
    {
        var settings = await SettingsAsync(new SimulatorOptions { Fault503Rate = 1.0 }, SimulatedTables.Rows(250, i => $"p{i % 3}"), AzuriteFixture.UniqueTableName());
        settings["Loader:Retry:MaxAttempts"] = "2";
        settings["Loader:Retry:MaxThrottledWait"] = "00:00:00"; // the attempts alone decide
        settings["Loader:Retry:BaseDelay"] = "00:00:00.005";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.RowsFailed, run.ExitCode);
        Assert.Equal(ReportOutcome.CompletedWithFailures, report.Outcome);
        Assert.Equal((250L, 0L, 250L), (report.RowsRead, report.RowsWritten, report.RowsFailed));
        Assert.True(report.Reconciled);
        var error = Assert.Single(report.Errors);
        Assert.Equal(250, error.Rows);
        Assert.StartsWith("503", error.Error, StringComparison.Ordinal);
        // One batch per partition (84, 83 and 83 rows), each sent once and retried MaxAttempts (2) times, every attempt a 503.
        Assert.Equal(3 * (1 + 2), report.Requests);
        Assert.Equal(report.Requests, report.Throttled);
        Assert.Equal(_tables.Simulator.Stats.Snapshot().Faults503, report.Throttled);
    }

    [Fact]
    public async Task A_hot_partition_waits_on_its_own_while_the_others_flow()
    {
        // One partition of 600 rows against a 500 RU/s per-partition budget; 30 cold partitions of 20 rows each.
        var table = AzuriteFixture.UniqueTableName();
        var csv = SimulatedTables.Rows(1_200, i => i % 2 == 0 ? "HOT" : $"cold{i % 30}");
        var settings = await SettingsAsync(new SimulatorOptions { PartitionRuPerSecond = 500, BurstSeconds = 1 }, csv, table);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(1_200, report.RowsWritten);
        Assert.True(report.Throttled > 0, "the hot partition should have been throttled");
        Assert.Null(report.PacedRequestUnitsPerSecond); // no pace imposed on the others
        // That its 429s never cut the concurrency limit is the limiter's test (A_hot_partition_alone_does_not_slow_the_others):
        // here the limit also follows Azurite's latency, which a shared machine moves as it likes.
        Assert.Equal(1_200, (await azurite.ReadTableAsync(table, _cancellation)).Count);
    }

    [Fact]
    public async Task A_request_unit_cap_holds_the_load_under_it()
    {
        var settings = await SettingsAsync(new SimulatorOptions { RuPerSecond = 100_000 }, SimulatedTables.Rows(2_000, i => $"p{i % 20}"), AzuriteFixture.UniqueTableName());
        settings["Loader:MaxRequestUnitsPerSecond"] = "4000";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal((2_000L, 0L), (report.RowsWritten, report.Throttled));
        Assert.Equal(10_000, report.RequestCharge);
        Assert.Equal(4_000, report.PacedRequestUnitsPerSecond);
        // The cap's arithmetic is RatePacerTests' on a simulated clock; here only that the load was held by it: 10,000 RU at
        // 4,000 a second, less the 800 the bucket holds and a first batch of 20 rows (100 RU) sent before any charge is
        // known, cannot end sooner than 2.275 s. That bound can only fail if the cap is not applied, never on a slow machine.
        Assert.True(report.ElapsedSeconds >= 2.2, $"10,000 RU under a 4,000 RU/s cap took {report.ElapsedSeconds} s");
        Assert.Equal(LimitKind.RequestBudget, report.Verdict!.Kind);
        Assert.StartsWith("Loader:MaxRequestUnitsPerSecond limited the load: it ran at ", report.Verdict.Sentence, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_rows_per_second_cap_holds_the_load_under_it_on_any_backend()
    {
        var table = AzuriteFixture.UniqueTableName();
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("rows.csv", SimulatedTables.Rows(900, i => $"p{i % 9}")),
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = table,
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:MaxRowsPerSecond"] = "400",
        };

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        // Nine batches of 100 rows: the first goes at once, each next one when the bucket holds 100 again (a fifth
        // of a second of burst), so the last leaves after (900 - 100) / 400 = 2 s at the earliest; unpaced, Azurite
        // takes nine batches in a fraction of a second.
        var report = run.RequireReport();
        Assert.Equal(900, report.RowsWritten);
        Assert.True(report.ElapsedSeconds >= 1.95, $"{report.ElapsedSeconds} s");
        Assert.Null(report.RequestCharge);
        Assert.Equal(LimitKind.RequestBudget, report.Verdict!.Kind);
        Assert.StartsWith("Loader:MaxRowsPerSecond limited the load: it wrote ", report.Verdict.Sentence, StringComparison.Ordinal);
    }
}
