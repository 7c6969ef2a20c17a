using System.Globalization;
using System.Threading.Channels;
using Azure;
using Azure.Identity;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Dispatch;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Hosting;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Mapping;
using Loader.Worker.Outputs;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Html;
using Loader.Worker.Reporting.Terminal;
using Loader.Worker.Shards;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Pipeline;

/// <summary>
/// One load, end to end: read and map (stage 1) → batch by partition key (stage 2) → dispatch in parallel
/// (stage 3), joined by bounded channels so a slow service holds the reader back instead of filling memory.
/// Always returns a report; what went wrong is in its outcome, message and exit code. In a sharded load each shard is
/// one run of this pipeline, narrowed to the shard by <paramref name="shard"/>.
/// </summary>
public sealed partial class LoadPipeline(
    IOptions<LoaderOptions> options,
    IBackendAdapter backend,
    InputOpener inputs,
    OutputFiles outputs,
    OutputPreflight preflight,
    LoadStatistics statistics,
    ILoggerFactory loggerFactory,
    TimeProvider timeProvider,
    TerminalProgress? terminal = null,
    ShardScope? shard = null)
{
    private readonly ILogger _logger = loggerFactory.CreateLogger<LoadPipeline>();

    /// <param name="stopReading">Stops reading new rows; what was read is still written (a graceful stop).</param>
    /// <param name="abort">Stops writing: requests in flight are cancelled and unwritten rows are counted failed.</param>
    public Task<LoadReport> RunAsync(CancellationToken stopReading, CancellationToken abort) => RunAsync(null, stopReading, abort);

    /// <param name="recordLimit">Reads only this many records from the start (the sample of <c>--estimate</c>), or all when null.</param>
    /// <param name="stopReading">Stops reading new rows; what was read is still written (a graceful stop).</param>
    /// <param name="abort">Stops writing: requests in flight are cancelled and unwritten rows are counted failed.</param>
    public async Task<LoadReport> RunAsync(long? recordLimit, CancellationToken stopReading, CancellationToken abort)
    {
        var startedAt = timeProvider.GetUtcNow();
        var settings = options.Value;
        using var controls = new DispatchControls(settings, timeProvider);
        var run = new RunState();
        try
        {
            var (outcome, exitCode, message) = await RunStagesAsync(settings, controls, run, recordLimit, stopReading, abort).ConfigureAwait(false);
            return BuildReport(settings, controls, run, startedAt, outcome, exitCode, message);
        }
        catch (LoadAbortedException exception)
        {
            LogAborted(exception.Message);
            return BuildReport(settings, controls, run, startedAt, "Failed", exception.ExitCode, exception.Message);
        }
    }

    /// <summary>
    /// <c>--check</c>: what a load would need, checked without loading. Every output proven writable; the input opened
    /// and its header fitted to the settings; the target reached, its credentials accepted, its table or container
    /// ready, and a probe entity written and deleted. All are checked, whatever fails first.
    /// </summary>
    public async Task<IReadOnlyList<PreflightCheck>> CheckAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value;
        var checks = new List<PreflightCheck>(await preflight.CheckAsync(settings, cancellationToken).ConfigureAwait(false));
        var inputDisplay = OutputFiles.Display(settings.Input) ?? "";
        checks.Add(await CheckStepAsync("Loader:Input", inputDisplay, async () =>
        {
            var source = await inputs.OpenAsync(settings.Input, settings.Csv.Compression, cancellationToken).ConfigureAwait(false);
            await using var input = source.Open(settings.Blob.ReadBlockSize);
            using var reader = OpenReader(input, settings);
            CreatePlan(reader.Header, settings);
            return $"readable; its header of {reader.Header.Count} columns fits the key templates and column types";
        }).ConfigureAwait(false));

        var target = $"{backend.Name} {Target(settings)}";
        if (settings.DryRun)
        {
            checks.Add(PreflightCheck.Passed("Loader:Backend", target, "not checked: a dry run connects to nothing"));
            return checks;
        }

        checks.Add(await CheckStepAsync("Loader:Backend", target, async () =>
        {
            await PrepareBackendAsync(settings, cancellationToken).ConfigureAwait(false);
            if (backend is not IWriteProbe probe)
            {
                return "reachable, credentials accepted, target ready; write permission not checked for this backend";
            }

            try
            {
                return $"reachable, credentials accepted, target ready; may write: {await probe.ProbeWriteAsync(cancellationToken).ConfigureAwait(false)}";
            }
            catch (Exception exception) when (exception is not OperationCanceledException)
            {
                throw new LoadAbortedException(ExitCodes.Unavailable, $"reachable, but a probe entity could not be written: {BackendErrors.Describe(exception)}", exception);
            }
        }).ConfigureAwait(false));
        return checks;
    }

    private static async Task<PreflightCheck> CheckStepAsync(string setting, string location, Func<Task<string>> step)
    {
        try
        {
            return PreflightCheck.Passed(setting, location, await step().ConfigureAwait(false));
        }
        catch (LoadAbortedException exception)
        {
            var failure = exception.ExitCode == ExitCodes.InvalidConfiguration ? PreflightFailure.InvalidSetting : PreflightFailure.Refused;
            return PreflightCheck.Failed(setting, location, exception.Message, failure);
        }
    }

    /// <summary>What the report needs to know about how the run began.</summary>
    private sealed class RunState
    {
        public ResumePoint? Resume { get; set; }

        /// <summary>Lines of the input read, once reading is over.</summary>
        public long? LinesRead { get; set; }

        /// <summary>The input's stored size, once it is open.</summary>
        public long? InputBytes { get; set; }
    }

    private async Task<(string Outcome, int ExitCode, string? Message)> RunStagesAsync(LoaderOptions settings, DispatchControls controls, RunState run, long? recordLimit, CancellationToken stopReading, CancellationToken abort)
    {
        await EnsureOutputsWritableAsync(settings, abort).ConfigureAwait(false);
        var source = await inputs.OpenAsync(settings.Input, settings.Csv.Compression, abort).ConfigureAwait(false);
        source = shard?.Narrow(source) ?? source;
        await using var input = source.Open(settings.Blob.ReadBlockSize);
        statistics.TrackInput(source.Progress);
        run.InputBytes = source.Length;
        using var reader = OpenReader(input, settings);
        var plan = CreatePlan(reader.Header, settings);
        var converter = new ColumnConverter(Culture(settings.Csv.Culture), settings.Csv.AllowGroupSeparators);
        var checkpoints = CheckpointStoreFor(settings);
        var resume = await ResumeAsync(settings, checkpoints, source, reader, abort).ConfigureAwait(false);
        run.Resume = resume;
        var watermark = new RecordWatermark(resume?.SkipRecords ?? 0);
        await PrepareBackendAsync(settings, abort).ConfigureAwait(false);

        var keepRejectsUpToLine = resume switch
        {
            { Window: { } window } => Math.Max(window.ReadUpToLine, reader.LastSkippedLine),
            { Resumed: true } => reader.LastSkippedLine,
            _ => (long?)null,
        };
        using var rejects = await OpenRejectsAsync(settings, keepRejectsUpToLine, source.Lines, abort).ConfigureAwait(false);
        using var checkpointWriter = checkpoints is null || resume is null
            ? null
            : new CheckpointWriter(checkpoints, resume, watermark, rejects.FlushAsync, settings.CheckpointInterval, timeProvider, loggerFactory.CreateLogger<CheckpointWriter>());
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(stopReading, rejects.LimitExceeded, checkpointWriter?.Lost ?? CancellationToken.None);
        // Few chunks in between: rows waiting here are rows the garbage collector must copy.
        var rows = Channel.CreateBounded<LoadEntity[]>(new BoundedChannelOptions(4) { SingleReader = true, SingleWriter = true });
        var batches = Channel.CreateBounded<ReadyBatch>(new BoundedChannelOptions(settings.MaxParallelBatches * 2) { SingleReader = true, SingleWriter = true });

        var readStage = new ReadStage(reader, () => new EntityMapper(plan, backend, converter), MapThreads(settings), rejects, statistics, resume?.Window, recordLimit, shard?.Buckets);
        var batchStage = new BatchStage(CreateBatcher(settings), rejects, watermark, () => readStage.LastRead, IdlePeriod(settings.MaxBatchDelay), () => batches.Reader.Count == 0);
        var writer = new BatchWriter(
            backend, new BatchResilience(settings.Retry, statistics, timeProvider), controls, statistics, rejects, watermark, resume?.HighestSentBefore ?? 0, timeProvider, loggerFactory.CreateLogger<BatchWriter>());
        var dispatcher = new PartitionOrderedDispatcher(writer, Math.Max(64, settings.MaxParallelBatches * 4), statistics, loggerFactory.CreateLogger<PartitionOrderedDispatcher>());

        LogStarting(settings.DryRun ? "Dry run" : "Load", source.Display, backend.Name, settings.WriteMode, settings.MaxParallelBatches);
        statistics.Start();
        using var backgroundStop = new CancellationTokenSource();
        var progress = new ProgressReporter(statistics, timeProvider, loggerFactory.CreateLogger<ProgressReporter>(), source.Progress)
            .RunAsync(settings.ProgressInterval, () => (controls.Limiter.Limit, controls.Pacer.RequestUnitRate), checkpointWriter is null ? null : () => checkpointWriter.SinceLastWritten, backgroundStop.Token);
        var bar = terminal?.RunAsync(statistics, () => (controls.Limiter.Limit, controls.Pacer.RequestUnitRate), backgroundStop.Token) ?? Task.CompletedTask;
        var checkpointing = checkpointWriter?.RunAsync(backgroundStop.Token) ?? Task.CompletedTask;
        (string, int, string?) conclusion;
        try
        {
            var reading = StageThread.Run("loader-read", () => readStage.Run(rows.Writer, stop.Token));
            var batching = StageThread.Run("loader-batch", () => batchStage.Run(rows.Reader, batches.Writer));
            var dispatching = Task.Run(() => dispatcher.RunAsync(batches.Reader, abort), CancellationToken.None);
            await Task.WhenAll(reading, batching, dispatching).ConfigureAwait(false);
        }
        finally
        {
            await backgroundStop.CancelAsync().ConfigureAwait(false);
            await Task.WhenAll(progress, checkpointing, bar).ConfigureAwait(false);
            conclusion = Conclude(readStage, rejects, checkpointWriter, stopReading);
            run.LinesRead = reader.LinesRead;

            // The rejects first: they are stored before the checkpoint that counts them as settled.
            var stored = checkpointWriter is not null
                ? await checkpointWriter.WriteAsync(completed: conclusion.Item2 == ExitCodes.Success, CancellationToken.None, DamageOf(readStage, source)).ConfigureAwait(false)
                : await PublishRejectsAsync(rejects).ConfigureAwait(false);
            if (!stored && conclusion.Item2 == ExitCodes.Success)
            {
                // A load that cannot keep its outputs has not succeeded, however well its rows went.
                var what = checkpointWriter is not null ? $"the final checkpoint could not be written to {OutputFiles.Display(settings.CheckpointPath)} ({checkpointWriter.LastFailure})" : "the rejects could not be stored";
                conclusion = ("OutputFailed", ExitCodes.OutputFailed, $"every row was settled, but {what}");
            }
        }

        return conclusion;
    }

    /// <summary>Where the input was found damaged, when that stopped reading; the checkpoint keeps it so a restart accepts the repaired file.</summary>
    private static InputDamage? DamageOf(ReadStage readStage, InputSource source) =>
        readStage.InputFailure is DamagedInputException damaged
            ? new InputDamage(damaged.Part, damaged.Offset, damaged.Message, source.IdentifyAllBut(damaged.Part))
            : null;

    private CheckpointStore? CheckpointStoreFor(LoaderOptions settings) =>
        settings.DryRun || OutputFor("Loader:CheckpointPath", settings.CheckpointPath) is not { } file ? null : new CheckpointStore(file);

    private OutputFile? OutputFor(string key, string? setting)
    {
        try
        {
            return outputs.For(setting);
        }
        catch (Exception exception) when (exception is FormatException or InvalidOperationException)
        {
            throw new LoadAbortedException(ExitCodes.InvalidConfiguration, $"{key}: {exception.Message}", exception);
        }
    }

    /// <summary>
    /// The rejects file. One that goes to a blob is written locally and published whole at each checkpoint and at
    /// the end; when resuming, the earlier run's published file is fetched first, so its rejects are kept.
    /// </summary>
    private async Task<RejectSink> OpenRejectsAsync(LoaderOptions settings, long? keepUpToLine, InputLineMap lines, CancellationToken cancellationToken)
    {
        var logger = loggerFactory.CreateLogger<RejectSink>();
        switch (OutputFor("Loader:RejectsPath", settings.RejectsPath))
        {
            case null:
                return new RejectSink(null, settings.MaxRejects, statistics, logger);
            case LocalOutputFile:
                return new RejectSink(settings.RejectsPath, settings.MaxRejects, statistics, logger, keepUpToLine, lines);
            case var blob:
                var workingCopy = Path.Combine(Path.GetTempPath(), $"loader-rejects-{Guid.NewGuid():N}.csv");
                if (keepUpToLine is not null && await ReadOutputAsync(blob, cancellationToken).ConfigureAwait(false) is { } earlier)
                {
                    await File.WriteAllBytesAsync(workingCopy, earlier.ToMemory(), cancellationToken).ConfigureAwait(false);
                }

                return new RejectSink(workingCopy, settings.MaxRejects, statistics, logger, keepUpToLine, lines, publishTo: blob);
        }
    }

    private static async Task<BinaryData?> ReadOutputAsync(OutputFile file, CancellationToken cancellationToken)
    {
        try
        {
            return await file.ReadAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is RequestFailedException or AuthenticationFailedException or IOException)
        {
            throw new LoadAbortedException(ExitCodes.Unavailable, $"cannot read '{file.Display}': {BackendErrors.Describe(exception)}", exception);
        }
    }

    /// <summary>Stores the rejects at the end of a load that keeps no checkpoint (which would store them itself); false when it could not.</summary>
    private async Task<bool> PublishRejectsAsync(RejectSink rejects)
    {
        try
        {
            await OutputWriteRetry.Create(timeProvider).ExecuteAsync(static async (sink, token) => await sink.FlushAsync(token).ConfigureAwait(false), rejects, CancellationToken.None)
                .ConfigureAwait(false);
            return true;
        }
        catch (Exception exception) when (OutputWriteRetry.IsOutputFailure(exception))
        {
            LogRejectsNotPublished(BackendErrors.Describe(exception));
            return false;
        }
    }

    /// <summary>Every configured output proven writable, before the first row is read (see <see cref="OutputPreflight"/>).</summary>
    private async Task EnsureOutputsWritableAsync(LoaderOptions settings, CancellationToken cancellationToken)
    {
        var checks = await preflight.CheckAsync(settings, cancellationToken).ConfigureAwait(false);
        if (checks.FirstOrDefault(check => !check.Ok) is { } failed)
        {
            throw new LoadAbortedException(ExitCodes.Of(failed.Failure), $"{failed.Setting}: cannot write '{failed.Location}': {failed.Detail}. Nothing was loaded.");
        }
    }

    /// <summary>
    /// Where this run starts. Without a checkpoint, or after a completed load, from the top; with one that belongs
    /// to this input and these settings, after the records it shows settled; with one that belongs to another
    /// load, not at all. Null when the load keeps no checkpoint.
    /// </summary>
    private async Task<ResumePoint?> ResumeAsync(LoaderOptions settings, CheckpointStore? store, InputSource source, CsvRecordReader reader, CancellationToken cancellationToken)
    {
        if (store is null)
        {
            return null;
        }

        var input = source.Identify();
        var identity = LoadIdentity.OfSettings(settings);
        var checkpointPath = OutputFiles.Display(settings.CheckpointPath)!;
        Checkpoint? checkpoint;
        try
        {
            checkpoint = await store.ReadAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (InvalidDataException exception)
        {
            throw new LoadAbortedException(ExitCodes.InvalidConfiguration, exception.Message, exception);
        }
        catch (Exception exception) when (exception is RequestFailedException or AuthenticationFailedException or IOException)
        {
            throw new LoadAbortedException(ExitCodes.Unavailable, $"Loader:CheckpointPath: cannot read '{checkpointPath}': {BackendErrors.Describe(exception)}", exception);
        }

        if (checkpoint is null || checkpoint.Completed)
        {
            if (checkpoint is not null)
            {
                LogPreviousCompleted(checkpointPath);
            }

            return new ResumePoint(0, 0, input, identity);
        }

        // After a damaged part stopped the earlier run, that part may have changed (it was repaired); nothing else may.
        var repaired = checkpoint.Input != input && IsRepairOf(checkpoint, source, input);
        if (LoadIdentity.Mismatch(repaired ? checkpoint with { Input = input } : checkpoint, input, identity) is { } mismatch)
        {
            throw new LoadAbortedException(ExitCodes.InvalidConfiguration,
                $"Loader:CheckpointPath '{checkpointPath}' belongs to another load: {mismatch}. Delete it or give another path to load from the top.");
        }

        if (repaired)
        {
            LogResumingRepaired(checkpoint.Damage!.Part, checkpoint.Damage.Offset, checkpointPath);
        }

        // A key shard cannot skip records unread: which of them were its own, it knows only by mapping them. They are
        // read again, and those the checkpoint shows settled are passed over as the window's are.
        var skip = shard?.Buckets is null ? checkpoint.NextRecord - 1 : 0;
        if (skip > 0 && source.CompressedParts.Any())
        {
            var compressed = string.Join(", ", source.CompressedParts.Select(part => part.Name));
            LogRereadingCompressed(skip, compressed);
        }

        var skipped = SkipSettled(reader, skip);
        statistics.RowsSkipped(skipped + reader.MalformedSkipped);
        var window = checkpoint.ReadUpTo >= checkpoint.NextRecord || (skip == 0 && checkpoint.ReadUpTo > 0)
            ? new ResumeWindow(checkpoint.ReadUpTo, checkpoint.ReadUpToLine, checkpoint.Pending)
            : null;
        var resend = window?.Pending.Sum(range => range[1] - range[0] + 1) ?? 0;
        LogResuming(skipped, checkpoint.NextRecord, window?.ReadUpTo ?? skipped, resend, checkpointPath);
        return new ResumePoint(skipped, checkpoint.HighestSent, input, identity) { Window = window, ResumedAt = checkpoint.NextRecord };
    }

    /// <summary>
    /// Whether the checkpoint was written by a load that stopped at a damaged compressed part, and this input is the same
    /// but for that part (replaced, as a repaired or downloaded-again file is).
    /// </summary>
    private static bool IsRepairOf(Checkpoint checkpoint, InputSource source, InputIdentity input) =>
        checkpoint.Damage is { } damage
        && checkpoint.Input.Name == input.Name
        && source.Parts.Any(part => part.Name == damage.Part)
        && source.IdentifyAllBut(damage.Part) == damage.Rest;

    /// <summary>Reads past the records an earlier run settled; a compressed part damaged before them stops the load here too.</summary>
    private static long SkipSettled(CsvRecordReader reader, long records)
    {
        try
        {
            return reader.Skip(records);
        }
        catch (DamagedInputException exception)
        {
            throw new LoadAbortedException(ExitCodes.InputDamaged, $"Input: {exception.Message}", exception);
        }
        catch (IOException exception)
        {
            throw new LoadAbortedException(ExitCodes.Unavailable, $"Input: reading past the records the checkpoint shows settled failed: {exception.Message}", exception);
        }
    }

    private (string, int, string?) Conclude(ReadStage readStage, RejectSink rejects, CheckpointWriter? checkpoints, CancellationToken stopReading)
    {
        var counts = statistics.Snapshot();
        if (checkpoints is { Lost.IsCancellationRequested: true } && !readStage.ReachedEnd)
        {
            return ("CheckpointLost", ExitCodes.OutputFailed, string.Create(CultureInfo.InvariantCulture,
                $"no checkpoint could be written for {checkpoints.LostAfter.TotalSeconds:0} s ({checkpoints.LastFailure}): the load stopped after {counts.RowsRead:N0} rows rather than run on without the crash safety Loader:CheckpointPath asks for; fix the checkpoint's location and run again to resume"));
        }

        if (readStage.InputFailure is DamagedInputException damaged)
        {
            var resume = string.IsNullOrWhiteSpace(options.Value.CheckpointPath) || options.Value.DryRun
                ? "set Loader:CheckpointPath to resume after the rows already written next time"
                : "the checkpoint records them: replace the file and run again with the same checkpoint to resume after them";
            return ("Failed", ExitCodes.InputDamaged, string.Create(CultureInfo.InvariantCulture,
                $"the input is damaged, reading stopped after {counts.RowsRead:N0} rows, which were loaded: {damaged.Message} {char.ToUpperInvariant(resume[0])}{resume[1..]}."));
        }

        if (readStage.InputFailure is CsvHelper.CsvFormatException unreadable)
        {
            // The input itself, not the storage it sits on: a record the parser cannot read past (the guard against
            // runaway quotes keeps records far below the parser's limit, so this is not expected).
            return ("Failed", ExitCodes.InvalidConfiguration, $"the input cannot be parsed on after {counts.RowsRead:N0} rows: {unreadable.Message}");
        }

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
        catch (DamagedInputException exception)
        {
            throw new LoadAbortedException(ExitCodes.InputDamaged, $"Input: {exception.Message}", exception);
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
            settings.WriteMode,
            settings.MaxBatchDelay);
        return new PartitionBatcher(policy, entity => backend.Inspect(entity.PartitionKey, entity.RowKey, entity.Properties.ToArray()), timeProvider);
    }

    /// <summary>How often the batch stage looks for batches that waited long enough while no rows come: a fraction of the delay, so none waits much past it.</summary>
    private static TimeSpan IdlePeriod(TimeSpan maxBatchDelay) =>
        TimeSpan.FromTicks(Math.Clamp(maxBatchDelay.Ticks / 4, TimeSpan.TicksPerMillisecond * 10, TimeSpan.TicksPerSecond));

    /// <summary>
    /// Mapping threads: one per core but one, up to four. On two cores the read thread maps alone: the batch
    /// stage and the dispatcher need the other core, and handing records to mapping threads cost more than it
    /// gained (5M-row dry run, four alternating pairs: median 529k rows/s mapping inline, 483k on two threads).
    /// </summary>
    private static int MapThreads(LoaderOptions settings) =>
        settings.Csv.MapThreads > 0 ? settings.Csv.MapThreads : Math.Clamp(Environment.ProcessorCount - 1, 1, 4);

    internal static CultureInfo Culture(string name) =>
        string.IsNullOrWhiteSpace(name) ? CultureInfo.InvariantCulture : CultureInfo.GetCultureInfo(name);

    private LoadReport BuildReport(LoaderOptions settings, DispatchControls controls, RunState run, DateTimeOffset startedAt, string outcome, int exitCode, string? message)
    {
        var counts = statistics.Snapshot();
        var concurrency = controls.Timeline.Summary();
        var seconds = counts.Elapsed.TotalSeconds;
        var charge = counts.RequestCharge;
        return new LoadReport
        {
            Backend = backend.Name,
            DryRun = settings.DryRun,
            Input = OutputFiles.Display(settings.Input) ?? "",
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
            RowsAlreadyWritten = counts.RowsAlreadyWritten,
            Shard = shard?.Spec.Id,
            RowsOfOtherShards = shard?.Buckets is null ? null : counts.RowsOfOtherShards,
            ResumedAtRecord = run.Resume is { Resumed: true } resumed ? resumed.ResumedAt : null,
            CheckpointPath = OutputFiles.Display(settings.CheckpointPath),
            Reconciled = counts.RowsRead == counts.RowsSettled,
            LinesRead = run.LinesRead,
            LinesRejected = counts.LinesRejected,
            Batches = counts.Batches,
            Requests = counts.Requests,
            RowsPerSecond = Math.Round(counts.RowsPerSecond, 1),
            LatencyMs = LatencySummary.From(statistics.Latency),
            Throttled = counts.Throttled,
            ThrottledShare = counts.Answers > 0 ? Math.Round((double)counts.Throttled / counts.Answers, 4) : 0,
            Retries = counts.Retries,
            RetryWaitSeconds = Math.Round(counts.RetryWait.TotalSeconds, 3),
            RequestCharge = charge is { } total ? Math.Round(total, 2) : null,
            RequestUnitsPerRow = charge is { } perRow && counts.RowsWritten > 0 ? Math.Round(perRow / counts.RowsWritten, 3) : null,
            RequestUnitsPerSecond = charge is { } perSecond && seconds > 0 ? Math.Round(perSecond / seconds, 1) : null,
            RejectsPath = OutputFiles.Display(settings.RejectsPath),
            HtmlReportPath = OutputFiles.Display(HtmlReportLocation.Setting(settings)),
            InputBytes = run.InputBytes,
            LatencyHistogram = statistics.Latency.Buckets(),
            RejectReasons = statistics.Rejects.Summary(),
            Settings = SettingsCatalog.Values(settings).ToDictionary(StringComparer.Ordinal),
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

    [LoggerMessage(Level = LogLevel.Error, Message = "The rejects could not be published: {Reason}")]
    private partial void LogRejectsNotPublished(string reason);

    [LoggerMessage(Level = LogLevel.Error, Message = "{Message}")]
    private partial void LogAborted(string message);

    [LoggerMessage(Level = LogLevel.Information, Message = "Resuming from the checkpoint at {CheckpointPath}: {Skipped:N0} records were done, reading from record {NextRecord:N0}; of those up to record {ReadUpTo:N0}, the {Resend:N0} still in batches at the checkpoint are sent again")]
    private partial void LogResuming(long skipped, long nextRecord, long readUpTo, long resend, string checkpointPath);

    [LoggerMessage(Level = LogLevel.Information, Message = "The input is compressed ({Parts}) and cannot seek: it is decompressed again from its start and the {Records:N0} records the checkpoint shows settled are read and skipped, not sent")]
    private partial void LogRereadingCompressed(long records, string parts);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The checkpoint at {CheckpointPath} was written when {Part} was found damaged at byte {Offset:N0}; that file has changed since, as a repaired one does, and the rest of the input has not: resuming after the records the earlier run settled")]
    private partial void LogResumingRepaired(string part, long offset, string checkpointPath);

    [LoggerMessage(Level = LogLevel.Information, Message = "The checkpoint at {CheckpointPath} records a completed load: this is a new load from the top")]
    private partial void LogPreviousCompleted(string checkpointPath);
}
