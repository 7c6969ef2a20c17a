using Loader.Worker.Configuration;
using Loader.Worker.Inputs.Compression;

namespace Loader.Worker.Inputs;

/// <summary>One file of an input: a local file or a blob, plain or compressed. An input of several parts is read as one CSV.</summary>
public abstract record InputPart(string Name, long Length)
{
    /// <summary>How the part's bytes are compressed (never <see cref="InputCompression.Auto"/>: that is decided when the input is opened).</summary>
    public InputCompression Compression { get; init; } = InputCompression.None;

    /// <summary>What identifies this version of the part without reading it (a blob's ETag); null when there is none.</summary>
    public abstract string? Version { get; }

    /// <summary>
    /// Opens the part's CSV text from the start, decompressed as it is read when the part is compressed;
    /// <paramref name="bufferSize"/> is how much to fetch at a time, and the bytes as stored count into <paramref name="progress"/>.
    /// </summary>
    public Stream Open(int bufferSize, InputProgress? progress = null) =>
        Decompression.Open(Compression, new CountingReadStream(OpenStored(bufferSize), progress), Name, Length);

    /// <summary>Opens the part's bytes as stored.</summary>
    protected abstract Stream OpenStored(int bufferSize);
}
