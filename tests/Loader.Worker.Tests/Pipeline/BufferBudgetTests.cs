using System.Globalization;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Pipeline;

/// <summary>
/// The memory budget of the rows waiting in partial batches, through the whole pipeline: each row is measured on the
/// mapping thread that made it when several map, by the batch stage when one does; a row handed on unmeasured would
/// weigh nothing, and the budget would never send a partial batch early.
/// </summary>
public sealed class BufferBudgetTests : IDisposable
{
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public async Task A_small_budget_sends_partial_batches_early_and_a_large_one_lets_them_fill(int mapThreads)
    {
        var flights = SkewedFlights.Write(_directory, 60_000, repeatKeys: false);

        var large = await DryRunBatches(flights, budget: 64L * 1024 * 1024, mapThreads);
        var small = await DryRunBatches(flights, budget: 1024 * 1024, mapThreads);

        // 1 MiB (the least the setting takes) holds about 2,000 of these rows: with hundreds of rare keys waiting, their
        // batches leave part-full (2,305 batches against 695 when this was written).
        Assert.True(small > 2 * large, $"{small:N0} batches with a 1 MiB budget against {large:N0} with 64 MiB: the budget did not send partial batches early");
    }

    private async Task<long> DryRunBatches(SkewedFlights flights, long budget, int mapThreads)
    {
        var settings = flights.KeySettings();
        settings["Loader:DryRun"] = "true";
        settings["Loader:Tables:Table"] = "unused";
        settings["Loader:MaxBufferedBytes"] = budget.ToString(CultureInfo.InvariantCulture);
        settings["Loader:MaxBatchDelay"] = "00:10:00";
        settings["Loader:Csv:MapThreads"] = mapThreads.ToString(CultureInfo.InvariantCulture);
        settings["Loader:ReportPath"] = _directory.File($"report-{budget}.json");

        var run = await LoaderRunner.RunAsync(settings, TestContext.Current.CancellationToken);

        Assert.True(run.ExitCode == 0, run.Error);
        var report = run.RequireReport();
        Assert.Equal(flights.Rows, report.RowsWritten);
        return report.Batches;
    }
}
