namespace Loader.Worker.Inputs;

/// <summary>
/// <c>Loader:Input</c> names something the loader does not read as the settings say: a folder, an archive, a file whose
/// bytes are not the codec its name or <c>Loader:Csv:Compression</c> chose, an address no client can be made for, or an
/// input that can be read only once where the load must read it again. The message says what it is and what to do;
/// nothing was loaded.
/// </summary>
internal sealed class InputRefusedException(string message, Exception? inner = null) : Exception(message, inner);
