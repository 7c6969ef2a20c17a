namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// A compressed part of the input that cannot be decompressed to its end: cut short, or damaged. Never the end of the
/// input: what was read before it stands, and the load stops so the file can be replaced and the load resumed.
/// </summary>
internal sealed class DamagedInputException(string part, long offset, string message, Exception? inner = null) : IOException(message, inner)
{
    /// <summary>The file or blob, as the input names it.</summary>
    public string Part { get; } = part;

    /// <summary>The compressed byte of the part at or before which the damage lies.</summary>
    public long Offset { get; } = offset;
}
