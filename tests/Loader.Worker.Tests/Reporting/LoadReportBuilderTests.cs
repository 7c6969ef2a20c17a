using System.Text.Json;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Reporting;

/// <summary>The report of a run, assembled alone: its outcome, the exit code the host gives it, and its counts.</summary>
public sealed class LoadReportBuilderTests : IDisposable
{
    private readonly FakeTimeProvider _time = new(DateTimeOffset.Parse("2026-01-02T03:04:05Z", System.Globalization.CultureInfo.InvariantCulture));
    private readonly TestMeterFactory _meters = new();
    private readonly LoadStatistics _statistics;
    private readonly LoaderOptions _settings = new() { Input = "input.csv", PartitionKey = "{pk}", RowKey = "{rk}", Tables = { Table = "flights" } };

    public LoadReportBuilderTests()
    {
        _statistics = new LoadStatistics(new LoaderMetrics(_meters), _time);
    }

    public void Dispose() => _meters.Dispose();

    private static readonly ConcurrencyReport s_concurrency = new("Adaptive", 1, 2.5, 4, 3);

    [Fact]
    public void The_report_says_the_outcome_by_its_name_with_its_message_and_exit_code()
    {
        var builder = new LoadReportBuilder(_settings, "Tables", _statistics, _time);
        var started = _time.GetUtcNow();
        _statistics.Start();
        _statistics.RowsRead(3);
        _statistics.BatchWritten(3);
        _time.Advance(TimeSpan.FromSeconds(2));

        var report = builder.Build(new LoadOutcome(LoadOutcomeKind.Unavailable, "Tables: no answer").Reported, new LoadRunFacts(started) { LinesRead = 4, InputBytes = 40 }, s_concurrency, 3, null);

        Assert.Equal(ReportOutcome.Failed, report.Outcome);
        Assert.Equal(ExitCodes.Unavailable, report.ExitCode);
        Assert.Equal("Tables: no answer", report.Message);
        Assert.False(report.Completed);
        Assert.Equal("table 'flights'", report.Target);
        Assert.Equal((started, started.AddSeconds(2)), (report.StartedAt, report.FinishedAt));
        Assert.Equal((3L, 3L, true), (report.RowsRead, report.RowsWritten, report.Reconciled));
        Assert.Equal((4L, 40L), (report.LinesRead!.Value, report.InputBytes!.Value));
        Assert.Null(report.Shard);
        Assert.Null(report.RowsOfOtherShards);
        Assert.Null(report.ResumedAtRecord);
        Assert.Same(s_concurrency, report.Concurrency);
        Assert.Equal(3, report.Timeline[^1].Concurrency);
        Assert.True(report.PeakMemoryMiB > 0);
    }

    [Fact]
    public void A_completed_key_shard_reports_its_shard_and_the_rows_of_other_shards_and_reads_back_as_completed()
    {
        var builder = new LoadReportBuilder(_settings, "Tables", _statistics, _time, shard: "s0002", keyShard: true);
        _statistics.RowsOfOtherShards(7);

        var report = builder.Build(LoadOutcome.Completed.Reported, new LoadRunFacts(_time.GetUtcNow()) { ResumedAtRecord = 5 }, s_concurrency, 3, 250.04);
        var json = JsonSerializer.Serialize(report, ReportWriter.JsonOptions);
        var read = JsonSerializer.Deserialize<LoadReport>(json, ReportWriter.JsonOptions)!;

        Assert.Equal(("s0002", 7L, 5L), (report.Shard, report.RowsOfOtherShards!.Value, report.ResumedAtRecord!.Value));
        Assert.Equal(250.0, report.PacedRequestUnitsPerSecond);
        Assert.Contains("\"outcome\": \"Completed\"", json, StringComparison.Ordinal);
        Assert.DoesNotContain("\"completed\"", json, StringComparison.Ordinal);
        Assert.True(read.Completed);
    }
}
