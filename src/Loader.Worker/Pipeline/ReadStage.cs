using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Csv;
using Loader.Worker.Mapping;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;

namespace Loader.Worker.Pipeline;

/// <summary>
/// First stage: reads records, maps them to entities and passes them on in chunks (one channel item per
/// chunk keeps hand-over cost per row small). Rows that cannot be mapped go to the rejects here.
/// </summary>
internal sealed class ReadStage(CsvRecordReader reader, EntityMapper mapper, RejectSink rejects, LoadStatistics statistics)
{
    internal const int ChunkSize = 256;

    /// <summary>True once every record of the input was read.</summary>
    public bool ReachedEnd { get; private set; }

    /// <summary>Why reading stopped early when the input itself failed (an I/O error); rows read before it still flow on.</summary>
    public Exception? InputFailure { get; private set; }

    /// <summary>Runs until the input ends, fails, or <paramref name="stopReading"/> fires; always completes <paramref name="output"/> normally so what was read is still written.</summary>
    public async Task RunAsync(ChannelWriter<LoadEntity[]> output, CancellationToken stopReading)
    {
        var chunk = new List<LoadEntity>(ChunkSize);
        try
        {
            while (!stopReading.IsCancellationRequested && reader.Read(out var record))
            {
                statistics.RowRead();
                var result = mapper.Map(record);
                if (result.Entity is { } entity)
                {
                    chunk.Add(entity);
                    if (chunk.Count == ChunkSize)
                    {
                        await output.WriteAsync([.. chunk], CancellationToken.None).ConfigureAwait(false);
                        chunk.Clear();
                    }
                }
                else
                {
                    rejects.Reject(record.Origin, result.RejectReason!, record.Fields, record.RawText);
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
            if (chunk.Count > 0)
            {
                await output.WriteAsync([.. chunk], CancellationToken.None).ConfigureAwait(false);
            }
        }
        finally
        {
            output.TryComplete();
        }
    }
}
