using System.Buffers.Binary;
using System.IO.Hashing;

namespace Loader.Worker.Records;

/// <summary>
/// A running fingerprint of the well-formed records read so far, in order: XxHash128 over each record's XxHash3, taken of
/// its bytes as they stand in the input (decompressed, without the line break). A checkpoint records it at points of the
/// input; a restart folds the records it skips in the same way and compares, so a record changed under the checkpoint is
/// found, not skipped. Digests are taken on the mapping threads; folding is in input order, on one thread at a time.
/// </summary>
internal sealed class RecordSequenceHash
{
    private readonly XxHash128 _hash = new();

    /// <summary>The records folded so far.</summary>
    public long Records { get; private set; }

    /// <summary>The fingerprint of the records folded so far.</summary>
    public UInt128 Current => _hash.GetCurrentHashAsUInt128();

    /// <summary>A record's digest, from its bytes as <see cref="CsvHelper.CsvReader.RawRecord"/> gives them.</summary>
    public static ulong Digest(ReadOnlySpan<byte> rawRecord) => XxHash3.HashToUInt64(rawRecord);

    /// <summary>How a fingerprint is written down: 32 hex digits.</summary>
    public static string Text(UInt128 hash) => hash.ToString("x32", System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>Folds the next record in.</summary>
    public void Add(ulong digest)
    {
        Span<byte> bytes = stackalloc byte[sizeof(ulong)];
        BinaryPrimitives.WriteUInt64LittleEndian(bytes, digest);
        _hash.Append(bytes);
        Records++;
    }
}
