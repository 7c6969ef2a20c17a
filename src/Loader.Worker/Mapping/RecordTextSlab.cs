namespace Loader.Worker.Mapping;

/// <summary>
/// Keeps the text of mapped records for the rejects file, many records to one array. A row waits in a partial
/// batch for tens of thousands of rows, so it outlives several garbage collections; one array per record would
/// be one more object per row for every one of them to trace and copy, a shared slab is one per few hundred rows.
/// A slab lives until the last of its rows is written, so the memory it holds is about that of the rows waiting.
/// Single-threaded: one per mapper.
/// </summary>
internal sealed class RecordTextSlab
{
    // Under the large-object threshold (85,000 bytes), so slabs are collected young like the rows that use them.
    internal const int SlabBytes = 32 * 1024;

    private byte[] _slab = [];
    private int _used;

    /// <summary>A copy of <paramref name="text"/> that stays valid after the reader moves on.</summary>
    public ReadOnlyMemory<byte> Keep(ReadOnlySpan<byte> text)
    {
        if (text.Length > SlabBytes / 8)
        {
            return text.ToArray(); // a long record gets its own array rather than wasting most of a slab
        }

        if (_slab.Length - _used < text.Length)
        {
            _slab = GC.AllocateUninitializedArray<byte>(SlabBytes);
            _used = 0;
        }

        var kept = new ReadOnlyMemory<byte>(_slab, _used, text.Length);
        text.CopyTo(_slab.AsSpan(_used));
        _used += text.Length;
        return kept;
    }
}
