using System.Text.Json;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;

namespace Loader.Worker.Checkpoints;

/// <summary>A checkpoint in a local file, replaced atomically (written beside, then moved over).</summary>
public sealed class FileCheckpointStore(string path) : ICheckpointStore
{
    public async Task<Checkpoint?> ReadAsync(CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        await using var stream = File.OpenRead(path);
        try
        {
            return await JsonSerializer.DeserializeAsync<Checkpoint>(stream, ReportWriter.JsonOptions, cancellationToken).ConfigureAwait(false);
        }
        catch (JsonException exception)
        {
            throw new InvalidDataException($"Loader:CheckpointPath '{path}' is not a loader checkpoint: {exception.Message}", exception);
        }
    }

    public Task WriteAsync(Checkpoint checkpoint, CancellationToken cancellationToken) =>
        AtomicFile.WriteJsonAsync(path, checkpoint, ReportWriter.JsonOptions, cancellationToken);
}
