namespace Loader.Worker.Backends;

/// <summary>The target (table or container) could not be reached, refused the credentials, or could not be made ready or written to.</summary>
internal sealed class TargetUnavailableException(string message, Exception? inner = null) : Exception(message, inner);
