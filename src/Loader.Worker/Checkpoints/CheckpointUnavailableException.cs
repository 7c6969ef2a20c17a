namespace Loader.Worker.Checkpoints;

/// <summary>The checkpoint at <c>Loader:CheckpointPath</c> could not be read: the storage refused the credential, failed, or gave no answer.</summary>
internal sealed class CheckpointUnavailableException(string message, Exception? inner = null) : Exception(message, inner);
