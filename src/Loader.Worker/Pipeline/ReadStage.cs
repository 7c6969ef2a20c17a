using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Csv;
using Loader.Worker.Mapping;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;

namespace Loader.Worker.Pipeline;

/// <summary>
/// First stage: reads records, maps them to entities (on <c>mapThreads</c> threads, results in input order) and
/// passes them on in chunks: one channel item per chunk keeps hand-over cost per row small. Rows that cannot
/// be mapped go to the rejects here.
/// </summary>
internal sealed class ReadStage(CsvRecordReader reader, Func<EntityMapper> createMapper, int mapThreads, RejectSink rejects, LoadStatistics statistics)
{
    internal const int ChunkSize = 512;

    /// <summary>The highest well-formed record number read so far.</summary>
    public long LastRecord { get; private set; }

    /// <summary>True once every record of the input was read.</summary>
    public bool ReachedEnd { get; private set; }

    /// <summary>Why reading stopped early when the input itself failed (an I/O error); rows read before it still flow on.</summary>
    public Exception? InputFailure { get; private set; }

    /// <summary>Runs until the input ends, fails, or <paramref name="stopReading"/> fires; always completes <paramref name="output"/> normally so what was read is still written. Blocks: run it on its own thread.</summary>
    public void Run(ChannelWriter<LoadEntity[]> output, CancellationToken stopReading)
    {
        var chunk = new List<LoadEntity>(ChunkSize);
        var read = 0;
        using var mappers = new ThreadLocal<EntityMapper>(createMapper);
        try
        {
            foreach (var record in reader.ReadAll(csv => mappers.Value!.Map(csv), mapThreads))
            {
                read++;
                LastRecord = Math.Max(LastRecord, record.Malformed?.Origin.Record ?? record.Value.Origin.Record);
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

                if (stopReading.IsCancellationRequested)
                {
                    break;
                }
            }

            ReachedEnd = !stopReading.IsCancellationRequested;
        }
        catch (Exception exception) when (exception is IOException or CsvHelper.CsvFormatException or UnauthorizedAccessException)
        {
            InputFailure = exception;
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
}
