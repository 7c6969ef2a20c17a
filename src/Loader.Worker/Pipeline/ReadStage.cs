using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Checkpoints;
using Loader.Worker.Csv;
using Loader.Worker.Mapping;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;

namespace Loader.Worker.Pipeline;

/// <summary>
/// First stage: reads records, maps them to entities (on <c>mapThreads</c> threads, results in input order) and
/// passes them on in chunks: one channel item per chunk keeps hand-over cost per row small. Rows that cannot
/// be mapped go to the rejects here. After a resume, records in the earlier run's <see cref="ResumeWindow"/> that it
/// settled are skipped, unmapped.
/// </summary>
internal sealed class ReadStage(CsvRecordReader reader, Func<EntityMapper> createMapper, int mapThreads, RejectSink rejects, LoadStatistics statistics, ResumeWindow? window = null, long? recordLimit = null, KeyBucketFilter? buckets = null)
{
    internal const int ChunkSize = 512;

    /// <summary>The highest well-formed record number read so far, and the line it starts on.</summary>
    public (long Record, long Line) LastRead { get; private set; }

    /// <summary>True once every record of the input was read.</summary>
    public bool ReachedEnd { get; private set; }

    /// <summary>Why reading stopped early when the input itself failed (an I/O error); rows read before it still flow on.</summary>
    public Exception? InputFailure { get; private set; }

    /// <summary>Runs until the input ends, fails, or <paramref name="stopReading"/> fires; always completes <paramref name="output"/> normally so what was read is still written. Blocks: run it on its own thread.</summary>
    public void Run(ChannelWriter<LoadEntity[]> output, CancellationToken stopReading)
    {
        var chunk = new List<LoadEntity>(ChunkSize);
        var read = 0;
        long records = 0;
        var limitReached = false;
        using var mappers = new ThreadLocal<EntityMapper>(createMapper);
        Func<CsvHelper.CsvReader, MapResult> map = buckets is not null
            ? csv => buckets.Map(mappers.Value!.Map(csv), window)
            : window is null
            ? csv => mappers.Value!.Map(csv)
            : csv => window.Settled(csv.RowNumber) ? MapResult.Skip(CsvRecordReader.OriginOf(csv)) : mappers.Value!.Map(csv);
        try
        {
            foreach (var record in reader.ReadAll(map, mapThreads))
            {
                if (record.Malformed is not null ? buckets?.OwnsRejects == false : record.Value.OtherShard)
                {
                    statistics.RowsOfOtherShards(1);
                    LastRead = Later(LastRead, record.Malformed?.Origin ?? record.Value.Origin);
                    continue;
                }

                if (record.Malformed is { } skipped ? window?.SettledMalformed(skipped.Origin.Record) == true : record.Value.Skipped)
                {
                    statistics.RowsSkipped(1);
                    continue;
                }

                read++;
                LastRead = Later(LastRead, record.Malformed?.Origin ?? record.Value.Origin);

                if (record.Value.Entity is { } entity)
                {
                    chunk.Add(entity);
                    if (chunk.Count == ChunkSize)
                    {
                        statistics.RowsRead(read);
                        read = 0;
                        BlockingChannel.Write(output, chunk.ToArray());
                        chunk.Clear();
                    }
                }
                else
                {
                    // Counted before the reject, so rowsRead never trails the rows it accounts for.
                    statistics.RowsRead(read);
                    read = 0;
                    if (record.Malformed is { } malformed)
                    {
                        rejects.Reject(malformed.Origin, malformed.Problem, malformed.RawText);
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

            ReachedEnd = limitReached || !stopReading.IsCancellationRequested;
        }
        catch (Exception exception) when (exception is IOException or CsvHelper.CsvFormatException or UnauthorizedAccessException)
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
            statistics.RowsRead(read);
            if (chunk.Count > 0)
            {
                BlockingChannel.Write(output, chunk.ToArray());
            }
        }
        finally
        {
            output.TryComplete();
        }
    }

    private static (long Record, long Line) Later((long Record, long Line) last, Abstractions.RowOrigin origin) =>
        origin.Record >= last.Record ? (origin.Record, origin.Line) : last;
}
