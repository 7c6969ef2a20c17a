using System.Security.Cryptography;
using System.Text;

namespace Loader.Worker.Inputs;

/// <summary>What a load reads: one or more parts (files, blobs) in name order, read as one CSV.</summary>
internal sealed class InputSource
{
    private const int SampleBytes = 1024 * 1024;

    public InputSource(string display, IReadOnlyList<InputPart> parts)
        : this(display, parts, new InputLineMap { HasSeveralParts = parts.Count > 1 })
    {
    }

    /// <summary>An input whose lines map to parts as <paramref name="lines"/> says (a range shard: one part, read from its middle).</summary>
    public InputSource(string display, IReadOnlyList<InputPart> parts, InputLineMap lines)
    {
        Display = display;
        Parts = parts;
        Lines = lines;
        Progress = new InputProgress(Length);
    }

    /// <summary>How logs and the report name the input: a path, or a URL without its signature.</summary>
    public string Display { get; }

    public IReadOnlyList<InputPart> Parts { get; }

    /// <summary>How the input's records are written: its parts' format, the same for all (the opener checks it).</summary>
    public InputFormat Format => Parts.Count > 0 ? Parts[0].Format : InputFormat.Csv;

    /// <summary>Which part and line a line of the combined input is, filled as it is read.</summary>
    public InputLineMap Lines { get; }

    /// <summary>The input's size as stored (compressed parts by their compressed size).</summary>
    public long Length => Parts.Sum(part => part.Length);

    /// <summary>How much of the input has been read, in bytes as stored.</summary>
    public InputProgress Progress { get; }

    /// <summary>
    /// Whether the input can be read only once (standard input, a named pipe): its size is unknown until it ends, and a
    /// load that would read it again (a resume) cannot.
    /// </summary>
    public bool ReadsOnce => Parts.Any(part => part is OnceReadPart);

    /// <summary>What the input is read from, as the report says it: a file or files, a blob or blobs, a named pipe, standard input.</summary>
    public string Medium
    {
        get
        {
            if (Parts is [OnceReadPart once])
            {
                return once.Kind;
            }

            var blobs = Parts.All(part => (part is RangePart range ? range.Whole : part) is BlobPart);
            return (blobs, Parts.Count) switch
            {
                (true, 1) => "a blob",
                (true, var count) => $"{count} blobs",
                (false, 1) => "a file",
                (false, var count) => $"{count} files",
            };
        }
    }

    /// <summary>The parts that are compressed: a resume reads them again from their start, since they cannot seek.</summary>
    public IEnumerable<InputPart> CompressedParts => Parts.Where(part => part.Compression != InputCompression.None);

    /// <summary>
    /// Opens the input as one stream of text, each part decompressed on its own, later CSV parts without their header;
    /// <paramref name="bufferSize"/> is how much a part fetches at a time. Only for formats whose parts can be read one after another (not Parquet).
    /// </summary>
    public Stream Open(int bufferSize) =>
        Parts.Count == 1 ? Parts[0].Open(bufferSize, Progress) : new CombinedPartsStream(Parts, bufferSize, Lines, Progress, partsHaveHeaders: Format == InputFormat.Csv);

    /// <summary>
    /// What ties a checkpoint to this input. Parts with versions (blob ETags) are identified by them: any rewrite
    /// changes one. A local file by its size and the SHA-256 of its first and last MiB — a change anywhere else in
    /// a file of the same size goes unnoticed, the price of not reading the input twice.
    /// </summary>
    public InputIdentity Identify()
    {
        if (Parts is [LocalFilePart file])
        {
            using var stream = new FileStream(file.Path, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.RandomAccess);
            var head = Sample(stream, 0, (int)Math.Min(SampleBytes, file.Length));
            var tailStart = Math.Max(0, file.Length - SampleBytes);
            var tail = Sample(stream, tailStart, (int)(file.Length - tailStart));
            return new InputIdentity(file.Name, file.Length, $"sha256 head {Hash(head)} tail {Hash(tail)}");
        }

        return new InputIdentity(Display, Length, $"{Parts.Count} parts, sha256 of names, sizes and versions {HashOfParts(Parts)}");
    }

    /// <summary>
    /// What identifies the input but the part <paramref name="damaged"/>: the other parts' names, sizes and versions, and
    /// that part's name. A load stopped by a damaged part resumes on the same input with that one part replaced.
    /// </summary>
    public string IdentifyAllBut(string damaged) =>
        $"sha256 of the other parts' names, sizes and versions {HashOfParts(Parts.Where(part => part.Name != damaged))}, and '{damaged}'";

    private static string HashOfParts(IEnumerable<InputPart> parts)
    {
        var versions = new StringBuilder();
        foreach (var part in parts)
        {
            versions.Append(part.Name).Append('\n').Append(part.Length).Append('\n').Append(part.Version).Append('\n');
        }

        return Hash(Encoding.UTF8.GetBytes(versions.ToString()));
    }

    private static byte[] Sample(Stream stream, long offset, int count)
    {
        var buffer = new byte[count];
        stream.Position = offset;
        stream.ReadExactly(buffer);
        return buffer;
    }

    private static string Hash(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));
}
