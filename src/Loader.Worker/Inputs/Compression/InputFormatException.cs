namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// A part's bytes are not what the load reads them as: an archive (zip, 7z, ...), a file that is not the codec its name
/// or <c>Loader:Csv:Compression</c> chose, or a compressed file read as plain text. The message names the part, what it is
/// and what to set. Said when the part is opened, before any of it is read; an <see cref="IOException"/>, so that a part
/// first opened while reading stops the reading as any failure of the input does.
/// </summary>
internal sealed class InputFormatException(string part, string message) : IOException(message)
{
    /// <summary>The file or blob, as the input names it.</summary>
    public string Part { get; } = part;
}
