namespace Loader.Worker.Inputs;

/// <summary>
/// How far reading the input has got, in bytes as stored: compressed bytes for a compressed file, so the fraction and
/// the time left are measured against the size the storage reports. Counted under any decompressor, by every part
/// as it is read; read from any thread.
/// </summary>
internal sealed class InputProgress(long length)
{
    private long _bytesRead;

    /// <summary>The input's size as stored (the sum of its parts).</summary>
    public long Length { get; } = length;

    /// <summary>Bytes of the input read so far, as stored.</summary>
    public long BytesRead => Volatile.Read(ref _bytesRead);

    /// <summary>The share of the input read, 0 to 1.</summary>
    public double Fraction => Length > 0 ? Math.Clamp((double)BytesRead / Length, 0, 1) : 1;

    /// <summary>The time the rest of the input takes at the pace so far; null before anything was read.</summary>
    public TimeSpan? Remaining(TimeSpan elapsed)
    {
        var read = BytesRead;
        return read > 0 && elapsed > TimeSpan.Zero
            ? TimeSpan.FromSeconds(elapsed.TotalSeconds * Math.Max(0, Length - read) / read)
            : null;
    }

    internal void Add(int bytes) => Interlocked.Add(ref _bytesRead, bytes);
}
