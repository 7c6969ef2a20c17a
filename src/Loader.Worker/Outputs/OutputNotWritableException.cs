namespace Loader.Worker.Outputs;

/// <summary>An output could not be proven writable: the message says where and why, never a signature or key.</summary>
internal sealed class OutputNotWritableException(string message, Exception? inner = null) : Exception(message, inner);
