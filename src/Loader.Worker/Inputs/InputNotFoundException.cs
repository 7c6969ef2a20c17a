namespace Loader.Worker.Inputs;

/// <summary>
/// Nothing is where <c>Loader:Input</c> points: no such file, no such blob, no blob (with content) under a prefix. Like an
/// input that cannot be reached, it may be there later (an export not landed yet); the message names the setting and
/// what it points at. Nothing was read.
/// </summary>
internal sealed class InputNotFoundException(string message, Exception? inner = null) : Exception(message, inner);
