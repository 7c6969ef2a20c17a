using System.Globalization;
using System.Runtime.ExceptionServices;
using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Dispatch;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Verify;

/// <summary>
/// One verify, in two passes. First the input is read and mapped as the load maps it and its rows sorted by partition
/// and row key (<see cref="RowSorter"/>: in memory up to <c>Loader:Verify:RowsInMemory</c>, else in sorted runs on disk,
/// merged), so that however the input is ordered a partition's rows come together and memory stays bounded. Then each
/// partition is read back from the target once (per window of rows, <see cref="RowWindow"/>) by the adapter's paged
/// query (<see cref="IPartitionReader"/>), paced and retried as the load's writes are, partitions in parallel, and
/// every key compared (<see cref="KeyCheck"/>). Always returns a report; what went wrong is in its outcome and message.
/// </summary>
internal sealed partial class TargetVerifier(
    LoaderOptions settings,
    IBackendAdapter backend,
    VerifyInput input,
    LoadStatistics statistics,
    TimeProvider timeProvider,
    ILogger<TargetVerifier> logger)
{
    /// <param name="scopes">What to read, with the rejects files of each share.</param>
    /// <param name="shards">Of a sharded load, its shards; null for a load.</param>
    /// <param name="stop">Stops the verify (SIGTERM, Ctrl-C): the report says what was checked.</param>
    public async Task<VerifyResult> RunAsync(IReadOnlyList<VerifyScope> scopes, int? shards, CancellationToken stop)
    {
        var startedAt = timeProvider.GetUtcNow();
        statistics.Start();
        var tally = new VerifyTally(settings.Verify.Examples);
        using var sorter = new RowSorter(settings.Verify.RowsInMemory);
        using var controls = new DispatchControls(settings, timeProvider);
        LoadOutcome outcome;
        try
        {
            if (backend is not IPartitionReader reader)
            {
                throw new InvalidOperationException($"the {backend.Name} backend cannot read a partition back");
            }

            LogStarting(settings.Input, backend.Name, settings.WriteMode, scopes.Count);
            await input.ReadAsync(scopes, sorter, tally, stop).ConfigureAwait(false);
            var read = tally.Snapshot().RowsRead;
            LogInputRead(read, sorter.SpilledRuns);
            await CompareAsync(reader, sorter, controls, tally, stop).ConfigureAwait(false);
            var counts = tally.Snapshot();
            outcome = counts.TargetDiffers ? new LoadOutcome(LoadOutcomeKind.TargetDiffers, Differences(counts)) : LoadOutcome.Completed;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            outcome = new LoadOutcome(LoadOutcomeKind.Stopped, string.Create(CultureInfo.InvariantCulture, $"stopped on request; {tally.Snapshot().RowsUnchecked:N0} rows were not checked"));
        }
        catch (Exception exception) when (LoadFailures.OutcomeOf(exception) is { } failed)
        {
            LogFailed(exception.Message);
            outcome = failed;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or Azure.RequestFailedException)
        {
            LogFailed(exception.Message);
            outcome = new LoadOutcome(LoadOutcomeKind.Unavailable, $"reading failed after {tally.Snapshot().RowsRead:N0} rows: {exception.Message}");
        }
        catch (Exception exception) when (exception is CsvHelper.CsvFormatException or InvalidDataException or FormatException)
        {
            LogFailed(exception.Message);
            outcome = new LoadOutcome(LoadOutcomeKind.InvalidConfiguration, exception.Message);
        }

        return new VerifyResult(outcome, Report(outcome, tally, sorter.SpilledRuns, scopes, shards, startedAt));
    }

    /// <summary>
    /// Hands the sorted rows out window by window to up to <c>4 × Loader:MaxParallelBatches</c> checks at once, within the
    /// rows budget; the concurrency limit and the pace of the requests are the load's (<see cref="DispatchControls"/>).
    /// The first window that cannot be read stops the rest: the target cannot be verified.
    /// </summary>
    private async Task CompareAsync(IPartitionReader reader, RowSorter sorter, DispatchControls controls, VerifyTally tally, CancellationToken stop)
    {
        var resilience = new BatchResilience(settings.Retry, statistics, timeProvider);
        var check = new PartitionCheck(reader, new PacedRequests(controls, resilience, statistics, timeProvider), resilience, tally, settings.WriteMode, settings.Verify.Extra);
        var budget = new RowBudget(settings.Verify.RowsInMemory);
        using var slots = new SemaphoreSlim(Math.Max(64, settings.MaxParallelBatches * 4));
        using var halt = CancellationTokenSource.CreateLinkedTokenSource(stop);
        using var progress = CancellationTokenSource.CreateLinkedTokenSource(stop);
        var reporting = ReportProgressAsync(tally, controls, progress.Token);
        Exception? failure = null;
        var running = new List<Task>();
        try
        {
            foreach (var window in RowWindow.Of(sorter.Sorted(), settings.Verify.RowsInMemory))
            {
                await slots.WaitAsync(halt.Token).ConfigureAwait(false);
                await budget.TakeAsync(window.Rows.Count, halt.Token).ConfigureAwait(false);
                running.RemoveAll(task => task.IsCompleted);
                running.Add(CheckAsync(window));
            }
        }
        catch (OperationCanceledException) when (halt.IsCancellationRequested)
        {
            // A failed window or a stop: said below, once every window has ended.
        }
        finally
        {
            await Task.WhenAll(running).ConfigureAwait(false);
            await progress.CancelAsync().ConfigureAwait(false);
            await reporting.ConfigureAwait(false);
        }

        if (failure is not null)
        {
            ExceptionDispatchInfo.Throw(failure);
        }

        stop.ThrowIfCancellationRequested();

        async Task CheckAsync(RowWindow window)
        {
            try
            {
                await check.CheckAsync(window, halt.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (halt.IsCancellationRequested)
            {
                // Stopped with the others.
            }
            catch (Exception exception)
            {
                if (Interlocked.CompareExchange(ref failure, exception, null) is null)
                {
                    await halt.CancelAsync().ConfigureAwait(false);
                }
            }
            finally
            {
                budget.Return(window.Rows.Count);
                slots.Release();
            }
        }
    }

    private async Task ReportProgressAsync(VerifyTally tally, DispatchControls controls, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(settings.ProgressInterval, timeProvider);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
            {
                var counts = tally.Snapshot();
                var requests = statistics.Snapshot();
                LogProgress(counts.RowsRead - counts.RowsUnchecked, counts.RowsRead, counts.Partitions, requests.Requests, requests.Throttled, controls.Limiter.Limit);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The comparing ended.
        }
    }

    private static string Differences(VerifyCounts counts)
    {
        var parts = new List<string>();
        void Add(long count, string what)
        {
            if (count > 0)
            {
                parts.Add(string.Create(CultureInfo.InvariantCulture, $"{count:N0} {what}"));
            }
        }

        Add(counts.RowsMissing, "rows missing");
        Add(counts.RowsDifferent, "rows different");
        Add(counts.RowsDuplicateNotWon, "repeated keys whose later row did not win");
        Add(counts.RowsNotDeleted, "rows not deleted");
        Add(counts.ExtraEntities, "entities no row accounts for");
        return $"the target differs from the input: {string.Join(", ", parts)}";
    }

    private VerifyReport Report(LoadOutcome outcome, VerifyTally tally, int spilledRuns, IReadOnlyList<VerifyScope> scopes, int? shards, DateTimeOffset startedAt)
    {
        var counts = tally.Snapshot();
        var requests = statistics.Snapshot();
        var seconds = requests.Elapsed.TotalSeconds;
        return new VerifyReport
        {
            Backend = backend.Name,
            Input = Outputs.OutputFiles.Display(settings.Input) ?? "",
            Target = LoadReportBuilder.TargetOf(settings),
            WriteMode = settings.WriteMode,
            Outcome = outcome.Name,
            ExitCode = outcome.ExitCode,
            Message = outcome.Message,
            StartedAt = startedAt,
            FinishedAt = timeProvider.GetUtcNow(),
            ElapsedSeconds = Math.Round(seconds, 3),
            Shards = shards,
            RejectsFiles = [.. scopes.SelectMany(scope => scope.RejectsFiles).Select(file => Outputs.OutputFiles.Display(file) ?? "")],
            Extra = settings.Verify.Extra,
            RowsRead = counts.RowsRead,
            RowsMatching = counts.RowsMatching,
            RowsSuperseded = counts.RowsSuperseded,
            RowsRejected = counts.RowsRejected,
            RowsMissing = counts.RowsMissing,
            RowsDifferent = counts.RowsDifferent,
            RowsDuplicateNotWon = counts.RowsDuplicateNotWon,
            RowsNotDeleted = counts.RowsNotDeleted,
            RowsUnchecked = counts.RowsUnchecked,
            ExtraEntities = settings.Verify.Extra ? counts.ExtraEntities : null,
            Reconciled = counts.RowsUnchecked == 0,
            Partitions = counts.Partitions,
            PartitionPasses = counts.PartitionPasses,
            EntitiesRead = counts.EntitiesRead,
            SpilledRuns = spilledRuns,
            RowsPerSecond = seconds > 0 ? Math.Round(counts.RowsRead / seconds, 1) : 0,
            Requests = requests.Requests,
            Throttled = requests.Throttled,
            Retries = requests.Retries,
            RetryWaitSeconds = Math.Round(requests.RetryWait.TotalSeconds, 3),
            RequestCharge = requests.RequestCharge is { } charge ? Math.Round(charge, 2) : null,
            LatencyMs = LatencySummary.From(statistics.Latency),
            PeakMemoryMiB = Math.Round(ProcessMemory.PeakWorkingSetMiB(), 1),
            Examples = tally.Examples(),
            Settings = SettingsCatalog.Values(settings).ToDictionary(StringComparer.Ordinal),
        };
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Verify of {Input} against {Backend} starting: write mode {WriteMode}, {Scopes} input share(s)")]
    private partial void LogStarting(string input, string backend, WriteMode writeMode, int scopes);

    [LoggerMessage(Level = LogLevel.Information, Message = "Verify: {RowsRead:N0} rows read and sorted ({SpilledRuns} runs on disk); reading the target back")]
    private partial void LogInputRead(long rowsRead, int spilledRuns);

    [LoggerMessage(Level = LogLevel.Information, Message = "Verify progress: {RowsChecked:N0} of {RowsRead:N0} rows checked, {Partitions:N0} partitions, {Requests:N0} requests, {Throttled:N0} throttled, {Concurrency} in flight allowed")]
    private partial void LogProgress(long rowsChecked, long rowsRead, long partitions, long requests, long throttled, int concurrency);

    [LoggerMessage(Level = LogLevel.Error, Message = "{Message}")]
    private partial void LogFailed(string message);
}
