namespace Loader.Worker.Checkpoints;

/// <summary>Where checkpoints live: a file here, a blob in Azure.</summary>
internal interface ICheckpointStore
{
    /// <summary>The stored checkpoint, or null when there is none.</summary>
    Task<Checkpoint?> ReadAsync(CancellationToken cancellationToken);

    /// <summary>Replaces the stored checkpoint; a reader never sees half of one.</summary>
    Task WriteAsync(Checkpoint checkpoint, CancellationToken cancellationToken);
}
