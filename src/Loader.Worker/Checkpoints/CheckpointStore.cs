using System.Text.Json;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;

namespace Loader.Worker.Checkpoints;

/// <summary>A checkpoint as JSON in an <see cref="OutputFile"/>: a local file, or a blob beside a blob input.</summary>
internal sealed class CheckpointStore(OutputFile file) : ICheckpointStore
{
    // Written every second or so with thousands of pending ranges: on one line, a quarter of the indented size.
    private static readonly JsonSerializerOptions s_compact = new(ReportWriter.JsonOptions) { WriteIndented = false };

    /// <summary>A checkpoint in a local file.</summary>
    public static CheckpointStore AtPath(string path) => new(new LocalOutputFile(path));

    public async Task<Checkpoint?> ReadAsync(CancellationToken cancellationToken)
    {
        var content = await file.ReadAsync(cancellationToken).ConfigureAwait(false);
        if (content is null)
        {
            return null;
        }

        try
        {
            return content.ToObjectFromJson<Checkpoint>(ReportWriter.JsonOptions)
                ?? throw new JsonException("it holds null");
        }
        catch (JsonException exception)
        {
            throw new InvalidDataException($"Loader:CheckpointPath '{file.Display}' is not a loader checkpoint: {exception.Message}", exception);
        }
    }

    public Task WriteAsync(Checkpoint checkpoint, CancellationToken cancellationToken) =>
        file.WriteJsonAsync(checkpoint, s_compact, cancellationToken);
}
