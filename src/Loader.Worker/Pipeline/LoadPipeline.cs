using System.Globalization;
using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Dispatch;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Hosting;
using Loader.Worker.Mapping;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Pipeline;

/// <summary>
/// One load, end to end: read and map (stage 1) → batch by partition key (stage 2) → dispatch in parallel
/// (stage 3), joined by bounded channels so a slow service holds the reader back instead of filling memory.
/// Always returns a report; what went wrong is in its outcome, message and exit code.
/// </summary>
public sealed partial class LoadPipeline(
    IOptions<LoaderOptions> options,
    IBackendAdapter backend,
    LoadStatistics statistics,
    ILoggerFactory loggerFactory,
    TimeProvider timeProvider)
{
    private readonly ILogger _logger = loggerFactory.CreateLogger<LoadPipeline>();

    /// <param name="stopReading">Stops reading new rows; what was read is still written (a graceful stop).</param>
    /// <param name="abort">Stops writing: requests in flight are cancelled and unwritten rows are counted failed.</param>
    public async Task<LoadReport> RunAsync(CancellationToken stopReading, CancellationToken abort)
    {
        var startedAt = timeProvider.GetUtcNow();
        var settings = options.Value;
        using var controls = new DispatchControls(settings, timeProvider);
        try
        {
            var run = await RunStagesAsync(settings, controls, stopReading, abort).ConfigureAwait(false);
            return BuildReport(settings, controls, startedAt, run.Outcome, run.ExitCode, run.Message);
        }
        catch (LoadAbortedException exception)
        {
            LogAborted(exception.Message);
            return BuildReport(settings, controls, startedAt, "Failed", exception.ExitCode, exception.Message);
        }
    }

    private async Task<(string Outcome, int ExitCode, string? Message)> RunStagesAsync(LoaderOptions settings, DispatchControls controls, CancellationToken stopReading, CancellationToken abort)
    {
        await using var input = OpenInput(settings.Input);
        using var reader = OpenReader(input, settings);
        var plan = CreatePlan(reader.Header, settings);
        var converter = new ColumnConverter(Culture(settings.Csv.Culture));
        await PrepareBackendAsync(settings, abort).ConfigureAwait(false);

        using var rejects = new RejectSink(settings.RejectsPath, settings.MaxRejects, statistics, loggerFactory.CreateLogger<RejectSink>());
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(stopReading, rejects.LimitExceeded);
        // Few chunks in between: rows waiting here are rows the garbage collector must copy.
        var rows = Channel.CreateBounded<LoadEntity[]>(new BoundedChannelOptions(4) { SingleReader = true, SingleWriter = true });
        var batches = Channel.CreateBounded<ReadyBatch>(new BoundedChannelOptions(settings.MaxParallelBatches * 2) { SingleReader = true, SingleWriter = true });

        var readStage = new ReadStage(reader, () => new EntityMapper(plan, backend, converter), MapThreads(settings), rejects, statistics);
        var batchStage = new BatchStage(CreateBatcher(settings), rejects);
        var writer = new BatchWriter(backend, new BatchResilience(settings.Retry, statistics, timeProvider), controls, statistics, rejects, loggerFactory.CreateLogger<BatchWriter>());
        var dispatcher = new PartitionOrderedDispatcher(writer, Math.Max(64, settings.MaxParallelBatches * 4), statistics, loggerFactory.CreateLogger<PartitionOrderedDispatcher>());

        LogStarting(settings.DryRun ? "Dry run" : "Load", settings.Input, backend.Name, settings.WriteMode, settings.MaxParallelBatches);
        statistics.Start();
        using var progressStop = new CancellationTokenSource();
        var progress = new ProgressReporter(statistics, timeProvider, loggerFactory.CreateLogger<ProgressReporter>())
            .RunAsync(settings.ProgressInterval, () => (controls.Limiter.Limit, controls.Pacer.RequestUnitRate), progressStop.Token);
        try
        {
            var reading = StageThread.Run("loader-read", () => readStage.Run(rows.Writer, stop.Token));
            var batching = StageThread.Run("loader-batch", () => batchStage.Run(rows.Reader, batches.Writer));
            var dispatching = Task.Run(() => dispatcher.RunAsync(batches.Reader, abort), CancellationToken.None);
            await Task.WhenAll(reading, batching, dispatching).ConfigureAwait(false);
        }
        finally
        {
            await progressStop.CancelAsync().ConfigureAwait(false);
            await progress.ConfigureAwait(false);
            rejects.Flush();
        }

        return Conclude(readStage, rejects, stopReading);
    }

    private (string, int, string?) Conclude(ReadStage readStage, RejectSink rejects, CancellationToken stopReading)
    {
        var counts = statistics.Snapshot();
        if (readStage.InputFailure is { } failure)
        {
            return ("Failed", ExitCodes.Unavailable, $"reading the input failed after {counts.RowsRead:N0} rows: {failure.Message}");
        }

        if (rejects.LimitExceeded.IsCancellationRequested)
        {
            return ("RejectLimitExceeded", ExitCodes.RejectLimitExceeded,
                string.Create(CultureInfo.InvariantCulture, $"more than {options.Value.MaxRejects:N0} rows rejected (Loader:MaxRejects); the load stopped after {counts.RowsRead:N0} rows"));
        }

        if (!readStage.ReachedEnd && stopReading.IsCancellationRequested)
        {
            return ("Stopped", ExitCodes.Stopped, string.Create(CultureInfo.InvariantCulture, $"stopped on request after {counts.RowsRead:N0} rows"));
        }

        return counts.RowsFailed > 0
            ? ("CompletedWithFailures", ExitCodes.RowsFailed, string.Create(CultureInfo.InvariantCulture, $"{counts.RowsFailed:N0} rows could not be written"))
            : ("Completed", ExitCodes.Success, null);
    }

    private static FileStream OpenInput(string path)
    {
        try
        {
            return new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new LoadAbortedException(ExitCodes.Unavailable, $"Loader:Input: cannot open '{path}': {exception.Message}", exception);
        }
    }

    private static CsvRecordReader OpenReader(Stream input, LoaderOptions settings)
    {
        try
        {
            return CsvRecordReader.Open(input, settings.Csv);
        }
        catch (CsvHeaderException exception)
        {
            throw new LoadAbortedException(ExitCodes.InvalidConfiguration, $"Input header: {exception.Message}", exception);
        }
    }

    private MappingPlan CreatePlan(IReadOnlyList<string> header, LoaderOptions settings)
    {
        try
        {
            return MappingPlan.Create(header, KeyTemplate.Parse(settings.PartitionKey), KeyTemplate.Parse(settings.RowKey), settings.Columns, backend);
        }
        catch (CsvHeaderException exception)
        {
            throw new LoadAbortedException(ExitCodes.InvalidConfiguration, $"The input's header does not fit the settings:{Environment.NewLine}{exception.Message}", exception);
        }
    }

    private async Task PrepareBackendAsync(LoaderOptions settings, CancellationToken abort)
    {
        if (settings.DryRun)
        {
            return;
        }

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(abort);
        timeout.CancelAfter(settings.ConnectTimeout);
        try
        {
            await backend.PrepareAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested && !abort.IsCancellationRequested)
        {
            throw new LoadAbortedException(ExitCodes.Unavailable,
                string.Create(CultureInfo.InvariantCulture, $"{backend.Name}: no answer from the service within {settings.ConnectTimeout.TotalSeconds:0} s (Loader:ConnectTimeout); check the endpoint and the network."));
        }
        catch (Exception exception) when (exception is not OperationCanceledException and not LoadAbortedException)
        {
            throw new LoadAbortedException(ExitCodes.Unavailable, $"{backend.Name}: cannot prepare the target: {BackendErrors.Describe(exception)}", exception);
        }
    }

    private PartitionBatcher CreateBatcher(LoaderOptions settings)
    {
        var limits = backend.Limits;
        var policy = new BatchingPolicy(
            Math.Min(settings.BatchSize, limits.MaxOperationsPerBatch),
            limits.MaxBatchPayloadBytes,
            settings.MaxBufferedRows,
            settings.WriteMode);
        return new PartitionBatcher(policy, entity => backend.Inspect(entity.PartitionKey, entity.RowKey, entity.Properties.ToArray()));
    }

    /// <summary>Mapping threads: one per core up to four, and at least two so a slow cell never stalls the reader.</summary>
    private static int MapThreads(LoaderOptions settings) =>
        settings.Csv.MapThreads > 0 ? settings.Csv.MapThreads : Math.Clamp(Environment.ProcessorCount, 2, 4);

    internal static CultureInfo Culture(string name) =>
        string.IsNullOrWhiteSpace(name) ? CultureInfo.InvariantCulture : CultureInfo.GetCultureInfo(name);

    private LoadReport BuildReport(LoaderOptions settings, DispatchControls controls, DateTimeOffset startedAt, string outcome, int exitCode, string? message)
    {
        var counts = statistics.Snapshot();
        var concurrency = controls.Timeline.Summary();
        var seconds = counts.Elapsed.TotalSeconds;
        var charge = counts.RequestCharge;
        return new LoadReport
        {
            Backend = backend.Name,
            DryRun = settings.DryRun,
            Input = settings.Input,
            Target = Target(settings),
            Outcome = outcome,
            ExitCode = exitCode,
            Message = message,
            StartedAt = startedAt,
            FinishedAt = timeProvider.GetUtcNow(),
            ElapsedSeconds = Math.Round(seconds, 3),
            RowsRead = counts.RowsRead,
            RowsWritten = counts.RowsWritten,
            RowsRejected = counts.RowsRejected,
            RowsSuperseded = counts.RowsSuperseded,
            RowsFailed = counts.RowsFailed,
            RowsSkipped = counts.RowsSkipped,
            Reconciled = counts.RowsRead == counts.RowsSettled,
            Batches = counts.Batches,
            Requests = counts.Requests,
            RowsPerSecond = Math.Round(counts.RowsPerSecond, 1),
            LatencyMs = LatencySummary.From(statistics.Latency),
            Throttled = counts.Throttled,
            ThrottledShare = counts.Requests > 0 ? Math.Round((double)counts.Throttled / counts.Requests, 4) : 0,
            Retries = counts.Retries,
            RetryWaitSeconds = Math.Round(counts.RetryWait.TotalSeconds, 3),
            RequestCharge = charge is { } total ? Math.Round(total, 2) : null,
            RequestUnitsPerRow = charge is { } perRow && counts.RowsWritten > 0 ? Math.Round(perRow / counts.RowsWritten, 3) : null,
            RequestUnitsPerSecond = charge is { } perSecond && seconds > 0 ? Math.Round(perSecond / seconds, 1) : null,
            RejectsPath = string.IsNullOrWhiteSpace(settings.RejectsPath) ? null : settings.RejectsPath,
            PeakMemoryMiB = Math.Round(PeakMemoryMiB(), 1),
            Concurrency = new ConcurrencyReport(settings.Concurrency.ToString(), concurrency.Min, concurrency.Average, concurrency.Max, concurrency.Final),
            PacedRequestUnitsPerSecond = controls.Pacer.RequestUnitRate is { } paced ? Math.Round(paced, 1) : null,
            Timeline = [.. statistics.Samples(), ProgressReporter.Sample(counts, controls.Limiter.Limit, controls.Pacer.RequestUnitRate)],
            Errors = statistics.Errors(),
        };
    }

    private static double PeakMemoryMiB()
    {
        using var process = System.Diagnostics.Process.GetCurrentProcess();
        return process.PeakWorkingSet64 / (1024.0 * 1024.0);
    }

    private static string Target(LoaderOptions settings) => settings.Backend switch
    {
        BackendKind.Tables => $"table '{settings.Tables.Table}'",
        BackendKind.Cosmos => $"container '{settings.Cosmos.Database}/{settings.Cosmos.Container}' ({settings.Cosmos.Mode})",
        _ => settings.Backend.ToString(),
    };

    [LoggerMessage(Level = LogLevel.Information, Message = "{Mode} of {Input} into {Backend} starting: write mode {WriteMode}, up to {MaxParallelBatches} batches in flight")]
    private partial void LogStarting(string mode, string input, string backend, WriteMode writeMode, int maxParallelBatches);

    [LoggerMessage(Level = LogLevel.Error, Message = "{Message}")]
    private partial void LogAborted(string message);
}
