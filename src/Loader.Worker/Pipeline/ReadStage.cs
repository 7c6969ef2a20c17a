using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Mapping;
using Loader.Worker.Records;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;

namespace Loader.Worker.Pipeline;

/// <summary>
/// First stage: reads records, maps them to entities (on <c>mapThreads</c> threads, results in input order) and
/// passes them on in chunks: one channel item per chunk keeps hand-over cost per row small. Rows that cannot
/// be mapped go to the rejects here. After a resume, records in the earlier run's <see cref="ResumeWindow"/> that it
/// settled are skipped, unmapped. A load that keeps a checkpoint folds every well-formed record into the input's
/// fingerprint; after a resume it compares it with the earlier run's marks still to pass, and holds back the rows read
/// after the last mark it passed until it passes the next: nothing is sent from an input that turns out to differ.
/// </summary>
internal sealed class ReadStage(
    IRecordReader reader,
    Func<EntityMapper> createMapper,
    int mapThreads,
    RejectSink rejects,
    LoadStatistics statistics,
    ResumeWindow? window = null,
    long? recordLimit = null,
    KeyBucketFilter? buckets = null,
    RecordSequenceHash? fingerprint = null,
    PrefixCheck? check = null)
{
    internal const int ChunkSize = 512;

    // Chunks read after the last mark passed, sent once the next one is.
    private readonly List<ReadChunk> _held = [];
    private bool _proven;

    /// <summary>The highest well-formed record number read so far, and the line it starts on.</summary>
    public (long Record, long Line) LastRead { get; private set; }

    /// <summary>
    /// Whether the records a resumed checkpoint settled are proven this input's: the read stage has passed every mark of
    /// its fingerprint (true at once when there are none). Read from other threads.
    /// </summary>
    public bool Proven => check is null || Volatile.Read(ref _proven);

    /// <summary>True once every record of the input was read.</summary>
    public bool ReachedEnd { get; private set; }

    /// <summary>
    /// Why reading stopped early when the input itself failed (an I/O error), or differs from the one the resumed
    /// checkpoint settled records of (<see cref="CheckpointRefusedException"/>: nothing after the difference is sent);
    /// rows read before it still flow on.
    /// </summary>
    public Exception? InputFailure { get; private set; }

    // The time this thread waited for the batch stage to take its chunks: the rest of its time it worked.
    private TimeSpan _blocked;

    /// <summary>Runs until the input ends, fails, or <paramref name="stopReading"/> fires; always completes <paramref name="output"/> normally so what was read is still written. Blocks: run it on its own thread.</summary>
    public void Run(ChannelWriter<ReadChunk> output, CancellationToken stopReading)
    {
        var started = statistics.Times.Clock.GetTimestamp();
        try
        {
            ReadAll(output, stopReading);
        }
        finally
        {
            statistics.Times.ReaderEnded(statistics.Times.Clock.GetElapsedTime(started), _blocked);
        }
    }

    private void ReadAll(ChannelWriter<ReadChunk> output, CancellationToken stopReading)
    {
        var chunk = new List<LoadEntity>(ChunkSize);
        // Rows are measured where the mapping runs on several threads; a single mapping thread is the read's critical
        // path, and the batch stage measures them on its own thread instead.
        var measuring = mapThreads > 1;
        var measures = new List<RowMeasure>(measuring ? ChunkSize : 0);
        long records = 0;
        var limitReached = false;
        using var mappers = new ThreadLocal<EntityMapper>(createMapper);
        try
        {
            foreach (var record in reader.ReadAll(new StageMapping(mappers, window, buckets, fingerprint is not null, measuring), mapThreads))
            {
                if (record.Malformed is null && fingerprint is not null && !Fold(record.Value, output))
                {
                    break;
                }

                if (record.Malformed is not null ? buckets?.OwnsRejects == false : record.Value.OtherShard)
                {
                    statistics.RowsOfOtherShards(1);
                    LastRead = Later(LastRead, record.Malformed?.Origin ?? record.Value.Origin);
                    continue;
                }

                if (record.Malformed is { } skipped ? window?.SettledMalformed(skipped.Origin.Record) == true : record.Value.Skipped)
                {
                    statistics.RowsSkipped(1);
                    LastRead = Later(LastRead, record.Malformed?.Origin ?? record.Value.Origin);
                    continue;
                }

                LastRead = Later(LastRead, record.Malformed?.Origin ?? record.Value.Origin);
                if (record.Value.Entity is { } entity)
                {
                    chunk.Add(entity);
                    if (measuring)
                    {
                        measures.Add(record.Value.Measure);
                    }

                    if (chunk.Count == ChunkSize)
                    {
                        Emit(output, chunk, measures);
                    }
                }
                else
                {
                    // Counted before the reject, so rowsRead never trails the rows it accounts for.
                    statistics.RowsRead(1);
                    if (record.Malformed is { } malformed)
                    {
                        rejects.RejectUnsplit(malformed.Origin, malformed.Problem, malformed.RawText);
                    }
                    else if (record.Value.Unsplit)
                    {
                        rejects.RejectUnsplit(record.Value.Origin, record.Value.RejectReason!, record.Value.RecordText!);
                    }
                    else
                    {
                        rejects.Reject(record.Value.Origin, record.Value.RejectReason!, record.Value.RecordText!);
                    }
                }

                if (++records == recordLimit)
                {
                    limitReached = true;
                    break;
                }

                if (stopReading.IsCancellationRequested)
                {
                    break;
                }
            }

            ReachedEnd = InputFailure is null && (limitReached || !stopReading.IsCancellationRequested);
            if (ReachedEnd && !limitReached && check?.Ended() is { } shorter)
            {
                InputFailure = new CheckpointRefusedException(shorter);
            }
        }
        catch (Exception exception) when (exception is IOException or InvalidDataException or CsvHelper.CsvFormatException or UnauthorizedAccessException)
        {
            InputFailure = exception;
        }
        catch
        {
            // Anything else ends the load as unexpected; the stages after this one must still see the end of the rows, or they wait forever.
            output.TryComplete();
            throw;
        }

        try
        {
            // Rows read after the last mark passed are not sent: the input may differ there. A restart reads them again.
            if (check is null || check.Done)
            {
                Emit(output, chunk, measures);
            }
        }
        finally
        {
            output.TryComplete();
        }
    }

    /// <summary>
    /// The mapping of a record, run on the mapping threads: skipped or another shard's, or mapped and measured for the
    /// batcher; with its digest when the load keeps a fingerprint.
    /// </summary>
    private sealed class StageMapping(ThreadLocal<EntityMapper> mappers, ResumeWindow? window, KeyBucketFilter? buckets, bool digest, bool measure) : IRecordMapper<MapResult>
    {
        public MapResult Map<TRecord>(in TRecord record)
            where TRecord : struct, IRecordFields
        {
            var mapped = buckets is not null
                ? buckets.Map(mappers.Value!.Map(record), window)
                : window is not null && window.Settled(record.Origin.Record)
                ? MapResult.Skip(record.Origin)
                : mappers.Value!.Map(record);
            if (digest)
            {
                mapped = mapped with { Digest = record.Digest };
            }

            return measure && mapped.Entity is { } entity ? mapped with { Measure = RowMeasure.Of(entity) } : mapped;
        }
    }

    /// <summary>Folds a well-formed record into the fingerprint and checks the next mark; false when the input differs from the checkpoint's.</summary>
    private bool Fold(MapResult record, ChannelWriter<ReadChunk> output)
    {
        fingerprint!.Add(record.Digest);
        if (check is null || check.Done)
        {
            return true;
        }

        var passed = check.Passed;
        if (check.Check() is { } changed)
        {
            InputFailure = new CheckpointRefusedException(changed);
            _held.Clear();
            return false;
        }

        if (!ReferenceEquals(passed, check.Passed))
        {
            foreach (var held in _held)
            {
                Send(output, held);
            }

            _held.Clear();
            Volatile.Write(ref _proven, check.Done);
        }

        return true;
    }

    /// <summary>Hands the rows read so far on (or holds them while a mark is still to pass), with how far reading got.</summary>
    private void Emit(ChannelWriter<ReadChunk> output, List<LoadEntity> chunk, List<RowMeasure> measures)
    {
        var item = new ReadChunk([.. chunk], measures.Count > 0 ? [.. measures] : null, new RowOrigin(LastRead.Record, LastRead.Line), fingerprint?.Current);
        chunk.Clear();
        measures.Clear();
        if (check is { Done: false })
        {
            _held.Add(item);
        }
        else
        {
            Send(output, item);
        }
    }

    private void Send(ChannelWriter<ReadChunk> output, ReadChunk item)
    {
        statistics.RowsRead(item.Entities.Length);
        _blocked += BlockingChannel.Write(output, item, statistics.Times.Clock);
    }

    private static (long Record, long Line) Later((long Record, long Line) last, RowOrigin origin) =>
        origin.Record >= last.Record ? (origin.Record, origin.Line) : last;
}
