namespace Loader.Worker.Checkpoints;

/// <summary>The checkpoint at <c>Loader:CheckpointPath</c> cannot resume this load: it is not a checkpoint, or it belongs to another load.</summary>
internal sealed class CheckpointRefusedException(string message, Exception? inner = null) : Exception(message, inner);
