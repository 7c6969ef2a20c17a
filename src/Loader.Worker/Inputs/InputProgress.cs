namespace Loader.Worker.Inputs;

/// <summary>
/// How far reading the input has got, in bytes as stored: compressed bytes for a compressed file, so the fraction and
/// the time left are measured against the size the storage reports. Counted under any decompressor, by every part
/// as it is read; read from any thread. It also times the reading, for the report's time breakdown: the time spent
/// waiting for stored bytes (a disk, a blob download, a pipe) and the time spent decompressing them.
/// </summary>
/// <param name="length">The input's size as stored.</param>
/// <param name="clock">Times the reads; the system's clock when null.</param>
internal sealed class InputProgress(long length, TimeProvider? clock = null)
{
    private long _bytesRead;
    private long _storedTicks;
    private long _decompressingTicks;

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

    /// <summary>What times the reads.</summary>
    internal TimeProvider Clock { get; } = clock ?? TimeProvider.System;

    /// <summary>Time spent waiting for the input's bytes as stored: reads of a disk, a blob's download, a pipe.</summary>
    public TimeSpan Reading => TimeSpan.FromTicks(Interlocked.Read(ref _storedTicks));

    /// <summary>Time spent decompressing, the reads of the stored bytes under it left out.</summary>
    public TimeSpan Decompressing => TimeSpan.FromTicks(Interlocked.Read(ref _decompressingTicks));

    /// <summary>Counts a read of stored bytes that began at <paramref name="started"/> (a <see cref="Clock"/> timestamp).</summary>
    internal void StoredRead(long started) => Interlocked.Add(ref _storedTicks, Clock.GetElapsedTime(started).Ticks);

    /// <summary>Counts a read of decompressed text that began at <paramref name="started"/>, less the stored reads under it (<paramref name="storedBefore"/>: <see cref="Reading"/> then).</summary>
    internal void DecompressedRead(long started, TimeSpan storedBefore) =>
        Interlocked.Add(ref _decompressingTicks, Math.Max(0, (Clock.GetElapsedTime(started) - (Reading - storedBefore)).Ticks));
}
