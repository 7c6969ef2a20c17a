using Azure;
using Azure.Identity;
using Loader.Worker.Backends;
using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Outputs;
using Loader.Worker.Records;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// Where a load that keeps a checkpoint starts. Without a checkpoint, or after a completed load, from the top; with one
/// that belongs to this input and these settings, after the records it shows settled (read past here, unmapped); with
/// one that belongs to another load, not at all.
/// </summary>
/// <param name="settings">The load's settings: where its checkpoint is, and those that tie a checkpoint to it.</param>
/// <param name="canSkipUnread">
/// False for a key shard: which records were its own it knows only by mapping them, so it reads them all again and
/// passes over those the checkpoint shows settled as it does the window's.
/// </param>
/// <param name="statistics">Counts the records skipped.</param>
/// <param name="logger">Says where the load resumes.</param>
internal sealed partial class ResumePointFinder(
    LoaderOptions settings,
    bool canSkipUnread,
    LoadStatistics statistics,
    ILogger<ResumePointFinder> logger)
{
    private readonly string _checkpointPath = OutputFiles.Display(settings.CheckpointPath) ?? "";

    /// <summary>
    /// Reads the checkpoint in <paramref name="store"/> and moves <paramref name="reader"/> past the records it shows
    /// settled, folding them into <paramref name="fingerprint"/> (when the load keeps one) and checking the checkpoint's
    /// fingerprint marks among them as it goes.
    /// </summary>
    /// <exception cref="CheckpointRefusedException">The checkpoint is not one, belongs to another load, or the records it settled are not those of this input.</exception>
    /// <exception cref="CheckpointUnavailableException">The checkpoint could not be read.</exception>
    /// <exception cref="DamagedInputException">A compressed part is damaged before the records to skip end.</exception>
    /// <exception cref="InputUnavailableException">Reading past the settled records failed.</exception>
    public async Task<ResumePoint> FindAsync(ICheckpointStore store, InputSource source, IRecordReader reader, RecordSequenceHash? fingerprint, CancellationToken cancellationToken)
    {
        var input = source.Identify();
        var parts = InputPartState.Of(source);
        var identity = IdentifyingSettings.Of(settings);
        var checkpoint = await ReadAsync(store, cancellationToken).ConfigureAwait(false);
        if (checkpoint is null || checkpoint.Completed)
        {
            if (checkpoint is not null)
            {
                LogPreviousCompleted(_checkpointPath);
            }

            return new ResumePoint(0, 0, input, identity) { Parts = parts };
        }

        var proven = checkpoint.Version >= Checkpoint.FingerprintVersion;
        var rewritten = proven ? CheckpointInputMatch.Rewritten(checkpoint, parts) : [];
        if (CheckpointInputMatch.Mismatch(checkpoint, source, input, parts, identity) is { } mismatch)
        {
            throw new CheckpointRefusedException(
                $"Loader:CheckpointPath '{_checkpointPath}' belongs to another load: {mismatch}. Delete it or give another path to load from the top.");
        }

        if (!proven)
        {
            LogUnproven(_checkpointPath, checkpoint.Version);
        }

        if (checkpoint.Damage is { } damage && CheckpointInputMatch.Replaced(checkpoint, input, parts, damage.Part))
        {
            LogResumingRepaired(damage.Part, damage.Offset, _checkpointPath);
        }

        foreach (var part in rewritten)
        {
            LogRewritten(part, _checkpointPath);
        }

        var skip = canSkipUnread ? checkpoint.NextRecord - 1 : 0;
        if (skip > 0 && source.CompressedParts.Any())
        {
            var compressed = string.Join(", ", source.CompressedParts.Select(part => part.Name));
            LogRereadingCompressed(skip, compressed);
        }

        var check = proven && fingerprint is not null
            ? new PrefixCheck([.. checkpoint.Prefix.OrderBy(mark => mark.Record)], fingerprint, new PrefixMismatch(_checkpointPath, source, rewritten, source.Format == InputFormat.Parquet ? reader.Describe : null).Describe)
            : null;
        var skipped = SkipSettled(reader, skip, fingerprint, check);
        statistics.RowsSkipped(skipped + reader.MalformedSkipped);
        var window = checkpoint.ReadUpTo >= checkpoint.NextRecord || (skip == 0 && checkpoint.ReadUpTo > 0)
            ? new ResumeWindow(checkpoint.ReadUpTo, checkpoint.ReadUpToLine, checkpoint.Pending)
            : null;
        var resend = window?.Pending.Sum(range => range[1] - range[0] + 1) ?? 0;
        LogResuming(skipped, checkpoint.NextRecord, window?.ReadUpTo ?? skipped, resend, _checkpointPath);
        return new ResumePoint(skipped, checkpoint.HighestSent, input, identity)
        {
            Window = window,
            ResumedAt = checkpoint.NextRecord,
            Parts = parts,
            SkippedTo = fingerprint is not null && skipped > 0 ? new PrefixMark(skipped, reader.LastSkippedLine, RecordSequenceHash.Text(fingerprint.Current)) : null,
            Check = check is { Done: false } ? check : null,
        };
    }

    private async Task<Checkpoint?> ReadAsync(ICheckpointStore store, CancellationToken cancellationToken)
    {
        try
        {
            return await store.ReadAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (InvalidDataException exception)
        {
            throw new CheckpointRefusedException(exception.Message, exception);
        }
        catch (Exception exception) when (exception is RequestFailedException or AuthenticationFailedException or IOException)
        {
            throw new CheckpointUnavailableException($"Loader:CheckpointPath: cannot read '{_checkpointPath}': {BackendErrors.Describe(exception)}", exception);
        }
    }

    /// <summary>
    /// Reads past the records an earlier run settled, folding them into the fingerprint and checking the marks among
    /// them; a compressed part damaged before them stops the load here too.
    /// </summary>
    private static long SkipSettled(IRecordReader reader, long records, RecordSequenceHash? fingerprint, PrefixCheck? check)
    {
        try
        {
            long skipped = 0;
            while (check is not null && check.NextMark <= records)
            {
                skipped += reader.Skip(check.NextMark - skipped, fingerprint);
                if ((skipped < check.NextMark ? check.Ended() : check.Check()) is { } changed)
                {
                    throw new CheckpointRefusedException(changed);
                }
            }

            return skipped + reader.Skip(records - skipped, fingerprint);
        }
        catch (DamagedInputException exception)
        {
            throw new DamagedInputException(exception.Part, exception.Offset, $"Input: {exception.Message}", exception);
        }
        catch (IOException exception)
        {
            throw new InputUnavailableException($"Input: reading past the records the checkpoint shows settled failed: {exception.Message}", exception);
        }
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Resuming from the checkpoint at {CheckpointPath}: {Skipped:N0} records were done, reading from record {NextRecord:N0}; of those up to record {ReadUpTo:N0}, the {Resend:N0} still in batches at the checkpoint are sent again")]
    private partial void LogResuming(long skipped, long nextRecord, long readUpTo, long resend, string checkpointPath);

    [LoggerMessage(Level = LogLevel.Information, Message = "The input is compressed ({Parts}) and cannot seek: it is decompressed again from its start and the {Records:N0} records the checkpoint shows settled are read and skipped, not sent")]
    private partial void LogRereadingCompressed(long records, string parts);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The checkpoint at {CheckpointPath} was written when {Part} was found damaged at byte {Offset:N0}; that file has changed since, as a repaired one does, and the rest of the input has not: resuming after the records the earlier run settled")]
    private partial void LogResumingRepaired(string part, long offset, string checkpointPath);

    [LoggerMessage(Level = LogLevel.Information, Message = "The checkpoint at {CheckpointPath} records a completed load: this is a new load from the top")]
    private partial void LogPreviousCompleted(string checkpointPath);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The checkpoint at {CheckpointPath} was written by an earlier loader (checkpoint version {Version}): it holds no fingerprint of the records it settled, so it cannot prove they are this input's; a change inside the input that keeps its size goes unnoticed. Resuming as that loader did; the checkpoints written from now on hold the fingerprint")]
    private partial void LogUnproven(string checkpointPath, int version);

    [LoggerMessage(Level = LogLevel.Information, Message = "Input part {Part} has been rewritten since the checkpoint at {CheckpointPath} was written: the records the checkpoint settled are compared with its fingerprint as they are read again")]
    private partial void LogRewritten(string part, string checkpointPath);
}
