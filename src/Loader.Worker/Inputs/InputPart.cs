using Loader.Worker.Inputs.Compression;

namespace Loader.Worker.Inputs;

/// <summary>One file of an input: a local file or a blob, plain or compressed. An input of several parts is read as one CSV.</summary>
internal abstract record InputPart(string Name, long Length)
{
    /// <summary>How the part's bytes are compressed (never <see cref="InputCompression.Auto"/>: that is decided when the input is opened).</summary>
    public InputCompression Compression { get; init; } = InputCompression.None;

    /// <summary>How the part's records are written (never <see cref="InputFormat.Auto"/>: that is decided when the input is opened).</summary>
    public InputFormat Format { get; init; } = InputFormat.Csv;

    /// <summary>What identifies this version of the part without reading it (a blob's ETag); null when there is none.</summary>
    public abstract string? Version { get; }

    /// <summary>When the part was last written, where the storage says and <see cref="Version"/> does not tell it (a local file); null otherwise.</summary>
    public virtual DateTimeOffset? LastModified => null;

    /// <summary>
    /// Opens the part's CSV text from the start, decompressed as it is read when the part is compressed;
    /// <paramref name="bufferSize"/> is how much to fetch at a time, and the bytes as stored count into <paramref name="progress"/>.
    /// </summary>
    public Stream Open(int bufferSize, InputProgress? progress = null)
    {
        var text = Decompression.Open(Compression, new CountingReadStream(OpenStored(bufferSize), progress, Name), Name, Length);
        return progress is null || Compression == InputCompression.None ? text : new TimedDecompression(text, progress);
    }

    /// <summary>Opens the part's bytes as stored.</summary>
    protected abstract Stream OpenStored(int bufferSize);

    /// <summary>
    /// Opens the part's bytes as stored for reading at any position (a Parquet file is read from its footer back to
    /// its row groups): each read fetches what it needs, at most <paramref name="bufferSize"/> at a time, never the whole part.
    /// </summary>
    public virtual Stream OpenSeekable(int bufferSize) =>
        throw new InputRefusedException($"Loader:Input '{Name}' cannot be read at any position, which a Parquet file needs (its footer, at the end, locates its rows): copy it to a file or a blob and load that.");

    /// <summary>Whether <see cref="OpenRange"/> can read a byte range of the part, so a range shard can start inside it: never a compressed part's.</summary>
    public virtual bool CanOpenRange => false;

    /// <summary>Opens the stored bytes of the part from <paramref name="start"/> up to <paramref name="end"/> (exclusive); only a part that <see cref="CanOpenRange"/>.</summary>
    public virtual Stream OpenRange(long start, long end, int bufferSize) =>
        throw new NotSupportedException($"'{Name}' cannot be read from the middle.");
}
