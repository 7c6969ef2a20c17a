namespace Loader.Worker.Inputs;

/// <summary>
/// <c>Loader:Input</c> names no input a load can read: an address that is none or that no client can be made for, a blob that does not exist, a prefix
/// with no blobs under it. The message names the setting and what it points at; nothing was read.
/// </summary>
internal sealed class InputNotFoundException(string message, Exception? inner = null) : Exception(message, inner);
