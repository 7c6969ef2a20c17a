using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Dispatch;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Rejects;
using Loader.Worker.Records;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Pipeline;

/// <summary>
/// One load, end to end: read and map (stage 1) → batch by partition key (stage 2) → dispatch in parallel
/// (stage 3), joined by bounded channels so a slow service holds the reader back instead of filling memory.
/// Always returns a report; what went wrong is in its outcome and message. It is handed what it runs with, built from
/// the settings by <see cref="LoadPipelineFactory"/>; in a sharded load each shard is one run, narrowed to the shard.
/// </summary>
internal sealed partial class LoadPipeline
{
    private readonly LoaderOptions _settings;
    private readonly IBackendAdapter _backend;
    private readonly LoadPipelineParts _parts;
    private readonly LoadStatistics _statistics;
    private readonly ILoggerFactory _loggerFactory;
    private readonly TimeProvider _timeProvider;
    private readonly ILogger _logger;

    internal LoadPipeline(LoaderOptions settings, IBackendAdapter backend, LoadPipelineParts parts, LoadStatistics statistics, ILoggerFactory loggerFactory, TimeProvider timeProvider)
    {
        _settings = settings;
        _backend = backend;
        _parts = parts;
        _statistics = statistics;
        _loggerFactory = loggerFactory;
        _timeProvider = timeProvider;
        _logger = loggerFactory.CreateLogger<LoadPipeline>();
    }

    /// <param name="stopReading">Stops reading new rows; what was read is still written (a graceful stop).</param>
    /// <param name="abort">Stops writing: requests in flight are cancelled and unwritten rows are counted failed.</param>
    public Task<LoadResult> RunAsync(CancellationToken stopReading, CancellationToken abort) => RunAsync(null, stopReading, abort);

    /// <param name="recordLimit">Reads only this many records from the start (the sample of <c>--estimate</c>), or all when null.</param>
    /// <param name="stopReading">Stops reading new rows; what was read is still written (a graceful stop).</param>
    /// <param name="abort">Stops writing: requests in flight are cancelled and unwritten rows are counted failed.</param>
    public async Task<LoadResult> RunAsync(long? recordLimit, CancellationToken stopReading, CancellationToken abort)
    {
        var run = new LoadRunFacts(_timeProvider.GetUtcNow());
        using var controls = new DispatchControls(_settings, _timeProvider);
        LoadOutcome outcome;
        try
        {
            outcome = await RunStagesAsync(controls, run, recordLimit, stopReading, abort).ConfigureAwait(false);
        }
        catch (Exception exception) when (LoadFailures.OutcomeOf(exception) is { } failed)
        {
            LogAborted(exception.Message);
            outcome = failed;
        }
        catch (Exception exception)
        {
            // A defect before the rows flowed (preparing the input, the target, the outputs): still a report that says so.
            LogUnexpected(exception);
            outcome = LoadConclusion.Unexpected(exception, _statistics.Snapshot().RowsRead);
        }

        var concurrency = controls.Timeline.Summary();
        var report = _parts.Reports.Build(
            outcome.Reported,
            run,
            new ConcurrencyReport(_settings.Concurrency.ToString(), concurrency.Min, concurrency.Average, concurrency.Max, concurrency.Final),
            controls.Limiter.Limit,
            controls.Pacer.RequestUnitRate);
        return new LoadResult(outcome, report);
    }

    private async Task<LoadOutcome> RunStagesAsync(DispatchControls controls, LoadRunFacts run, long? recordLimit, CancellationToken stopReading, CancellationToken abort)
    {
        await _parts.Preflight.EnsureWritableAsync(_settings, abort).ConfigureAwait(false);
        var source = await _parts.Input.FindAsync(abort).ConfigureAwait(false);
        run.InputReading = source.Progress;
        run.InputMedium = source.Medium;
        run.InputFormat = source.Format;
        run.InputCompressed = source.CompressedParts.Any();
        if (!source.ReadsOnce)
        {
            // The share read and the time left need the input's size; a pipe's is unknown until it ends.
            _statistics.TrackInput(source.Progress);
            run.InputBytes = source.Length;
        }

        using var reader = _parts.Input.OpenReader(source);
        var mappers = _parts.Input.Mappers(_parts.Input.Fit(reader.Columns, source.Format), reader, source.Format);
        var checkpoints = _settings.DryRun || _parts.Outputs.For("Loader:CheckpointPath", _settings.CheckpointPath) is not { } file ? null : new CheckpointStore(file);
        var fingerprint = checkpoints is null ? null : new RecordSequenceHash();
        var resume = checkpoints is null ? null : await _parts.Resume.FindAsync(checkpoints, source, reader, fingerprint, abort).ConfigureAwait(false);
        run.ResumedAtRecord = resume is { Resumed: true } resumed ? resumed.ResumedAt : null;
        var watermark = new RecordWatermark(resume?.SkipRecords ?? 0, resume?.SkippedTo);
        await _parts.Target.PrepareAsync(abort).ConfigureAwait(false);

        var rejectRows = RejectLayouts.For(source, reader, CsvRecordReader.Separator(_settings.Csv.Delimiter));
        using var rejects = await _parts.Rejects.OpenAsync(KeepRejectsUpToLine(resume, reader), rejectRows, abort).ConfigureAwait(false);
        var readStage = new ReadStage(reader, mappers, MapThreads(_settings, source.Format), rejects, _statistics, resume?.Window, recordLimit, _parts.Buckets, fingerprint, resume?.Check);
        using var checkpointWriter = checkpoints is null || resume is null
            ? null
            : new CheckpointWriter(checkpoints, resume, watermark, rejects.FlushAsync, _settings.CheckpointInterval, _timeProvider, _loggerFactory.CreateLogger<CheckpointWriter>())
            {
                // Until the records the resumed checkpoint settled are proven this input's, a new one would vouch for them.
                Ready = () => readStage.Proven,
            };
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(stopReading, rejects.LimitExceeded, checkpointWriter?.Lost ?? CancellationToken.None);
        // Few chunks in between: rows waiting here are rows the garbage collector must copy.
        var rows = Channel.CreateBounded<ReadChunk>(new BoundedChannelOptions(4) { SingleReader = true, SingleWriter = true });
        var batches = Channel.CreateBounded<ReadyBatch>(new BoundedChannelOptions(_settings.MaxParallelBatches * 2) { SingleReader = true, SingleWriter = true });

        var batchStage = new BatchStage(CreateBatcher(), rejects, watermark, IdlePeriod(_settings.MaxBatchDelay), () => batches.Reader.Count == 0, _statistics.Times);
        var writer = new BatchWriter(
            _backend, new BatchResilience(_settings.Retry, _statistics, _timeProvider), controls, _statistics, rejects, watermark, resume, _timeProvider, _loggerFactory.CreateLogger<BatchWriter>());
        var dispatcher = new PartitionOrderedDispatcher(writer, Math.Max(64, _settings.MaxParallelBatches * 4), _statistics, _loggerFactory.CreateLogger<PartitionOrderedDispatcher>());

        LogStarting(_settings.DryRun ? "Dry run" : "Load", source.Display, _backend.Name, _settings.WriteMode, _settings.MaxParallelBatches);
        _statistics.Start();
        var progress = new ProgressReporter(_statistics, _timeProvider, _loggerFactory.CreateLogger<ProgressReporter>(), source.ReadsOnce ? null : source.Progress);
        using var loops = new BackgroundLoops(progress, _settings.ProgressInterval, _parts.Terminal, _statistics, controls, checkpointWriter);
        LoadOutcome outcome;
        Exception? defect = null;
        try
        {
            var reading = StageThread.Run("loader-read", () => readStage.Run(rows.Writer, stop.Token));
            var batching = StageThread.Run("loader-batch", () => batchStage.Run(rows.Reader, batches.Writer));
            var dispatching = Task.Run(() => dispatcher.RunAsync(batches.Reader, abort), CancellationToken.None);

            // A stage that fails takes no more from the one before it: close that one's channel, or it waits on it for ever.
            OnFailure(batching, () => rows.Writer.TryComplete());
            OnFailure(dispatching, () => batches.Writer.TryComplete());
            defect = await StageFailureAsync(reading, batching, dispatching).ConfigureAwait(false);
            if (defect is not null)
            {
                LogUnexpected(defect);
            }
        }
        finally
        {
            await loops.StopAsync().ConfigureAwait(false);
            var lost = checkpointWriter is { Lost.IsCancellationRequested: true } ? new CheckpointLoss(checkpointWriter.LostAfter, checkpointWriter.LastFailure) : null;
            outcome = LoadConclusion.Of(
                new StagesEnd(readStage.ReachedEnd, readStage.InputFailure, rejects.LimitExceeded.IsCancellationRequested, stopReading.IsCancellationRequested, lost, defect),
                _statistics.Snapshot(),
                _settings.MaxRejects,
                keepsCheckpoint: !string.IsNullOrWhiteSpace(_settings.CheckpointPath) && !_settings.DryRun);
            run.LinesRead = reader.LinesRead;

            // The rejects first: they are stored before the checkpoint that counts them as settled. An input that differs
            // from the one the resumed checkpoint settled records of leaves that checkpoint as it is, so it is refused again.
            var stored = readStage.InputFailure is CheckpointRefusedException || (checkpointWriter is not null
                ? await checkpointWriter.WriteAsync(completed: outcome.Kind == LoadOutcomeKind.Completed, CancellationToken.None, DamageOf(readStage, source)).ConfigureAwait(false)
                : await _parts.Rejects.PublishAsync(rejects).ConfigureAwait(false));
            checkpointWriter?.LogCost(_timeProvider.GetUtcNow() - run.StartedAt);
            run.Checkpointing = checkpointWriter?.Writing ?? TimeSpan.Zero;
            if (!stored)
            {
                var what = checkpointWriter is not null ? $"the final checkpoint could not be written to {OutputFiles.Display(_settings.CheckpointPath)} ({checkpointWriter.LastFailure})" : "the rejects could not be stored";
                outcome = LoadConclusion.OutputLost(outcome, $"every row was settled, but {what}");
            }
        }

        return outcome;
    }

    private static void OnFailure(Task stage, Action close) =>
        stage.ContinueWith(_ => close(), CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);

    /// <summary>
    /// Waits for every stage and gives the error that failed the first of them to fail, or null: the stages a failure
    /// closed the channel of fail after it, with <see cref="ChannelClosedException"/>, which is not the cause.
    /// </summary>
    private static async Task<Exception?> StageFailureAsync(params Task[] stages)
    {
        try
        {
            await Task.WhenAll(stages).ConfigureAwait(false);
            return null;
        }
        catch (Exception)
        {
            var failures = stages.Where(stage => stage.IsFaulted).SelectMany(stage => stage.Exception!.InnerExceptions).ToList();
            return failures.FirstOrDefault(failure => failure is not ChannelClosedException) ?? failures.FirstOrDefault();
        }
    }

    /// <summary>When resuming, the line up to which the earlier run's rejects stay in the file: this run meets the later ones again.</summary>
    private static long? KeepRejectsUpToLine(ResumePoint? resume, IRecordReader reader) => resume switch
    {
        { Window: { } window } => Math.Max(window.ReadUpToLine, reader.LastSkippedLine),
        { Resumed: true } => reader.LastSkippedLine,
        _ => null,
    };

    /// <summary>Where the input was found damaged, when that stopped reading; the checkpoint keeps it so a restart accepts the repaired file.</summary>
    private static InputDamage? DamageOf(ReadStage readStage, InputSource source) =>
        readStage.InputFailure is DamagedInputException damaged
            ? new InputDamage(damaged.Part, damaged.Offset, damaged.Message, source.IdentifyAllBut(damaged.Part))
            : null;

    private PartitionBatcher CreateBatcher()
    {
        var limits = _backend.Limits;
        var policy = new BatchingPolicy(
            Math.Min(_settings.BatchSize, limits.MaxOperationsPerBatch),
            limits.MaxBatchPayloadBytes,
            _settings.MaxBufferedRows ?? int.MaxValue,
            _settings.MaxBufferedBytes ?? BufferBudget.ForThisProcess(),
            _settings.WriteMode,
            _settings.MaxBatchDelay);
        return new PartitionBatcher(policy, entity => _backend.Inspect(entity.PartitionKey, entity.RowKey, entity.Properties.ToArray()), _timeProvider);
    }

    /// <summary>How often the batch stage looks for batches that waited long enough while no rows come: a fraction of the delay, so none waits much past it.</summary>
    private static TimeSpan IdlePeriod(TimeSpan maxBatchDelay) =>
        TimeSpan.FromTicks(Math.Clamp(maxBatchDelay.Ticks / 4, TimeSpan.TicksPerMillisecond * 10, TimeSpan.TicksPerSecond));

    /// <summary>
    /// Mapping threads, up to four. CSV: one per core but one, since its read thread parses every field (on two cores
    /// it maps alone there: handing records on costs more than it gains). JSON Lines and Parquet: one per core, since
    /// their read thread only finds lines or takes rows decoded ahead, and the mapping is the work.
    /// </summary>
    internal static int MapThreads(LoaderOptions settings, InputFormat format) =>
        settings.Csv.MapThreads > 0 ? settings.Csv.MapThreads
        : Math.Clamp(format == InputFormat.Csv ? Environment.ProcessorCount - 1 : Environment.ProcessorCount, 1, 4);

    [LoggerMessage(Level = LogLevel.Information, Message = "{Mode} of {Input} into {Backend} starting: write mode {WriteMode}, up to {MaxParallelBatches} batches in flight")]
    private partial void LogStarting(string mode, string input, string backend, WriteMode writeMode, int maxParallelBatches);

    [LoggerMessage(Level = LogLevel.Error, Message = "{Message}")]
    private partial void LogAborted(string message);

    [LoggerMessage(Level = LogLevel.Critical, Message = "The load failed unexpectedly")]
    private partial void LogUnexpected(Exception exception);
}
