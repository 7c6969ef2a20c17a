using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// A stored text or byte value where the page reader decoded it, in native memory: read in place, and only until the
/// reader decodes its next page, so it is copied or turned into a string at once.
/// </summary>
internal static class ParquetNativeBytes
{
    /// <summary>The bytes of a BYTE_ARRAY value.</summary>
    public static unsafe ReadOnlySpan<byte> Of(ByteArray value) =>
        value.Length == 0 ? [] : new ReadOnlySpan<byte>((void*)value.Pointer, value.Length);

    /// <summary>The bytes of a FIXED_LEN_BYTE_ARRAY value of <paramref name="length"/> bytes.</summary>
    public static unsafe ReadOnlySpan<byte> Of(FixedLenByteArray value, int length) =>
        length == 0 ? [] : new ReadOnlySpan<byte>((void*)value.Pointer, length);
}
