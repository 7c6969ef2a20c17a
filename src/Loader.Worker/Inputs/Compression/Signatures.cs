using System.Text;

namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// Tells from a part's first bytes whether it can be what the load reads it as: the signatures of gzip and Zstandard
/// (which every member and frame starts with), of the archives and codecs the loader does not read, and whether the bytes
/// read as plain text. Brotli and raw deflate have no signature; they are found out when nothing of them decodes.
/// </summary>
internal static class Signatures
{
    /// <summary>How many first bytes <see cref="Refusal"/> looks at.</summary>
    public const int HeadBytes = 64;

    private const string Readable = "The loader reads CSV text, plain or compressed as one stream: gzip (.gz), Zstandard (.zst), Brotli (.br) or zlib/deflate (.zz, .deflate); see Loader:Csv:Compression.";

    private static readonly (string What, bool Archive, byte[] Signature)[] s_unread =
    [
        ("a zip archive", true, [0x50, 0x4B, 0x03, 0x04]),
        ("a zip archive", true, [0x50, 0x4B, 0x05, 0x06]),
        ("a zip archive", true, [0x50, 0x4B, 0x07, 0x08]),
        ("a 7z archive", true, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]),
        ("a RAR archive", true, [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07]),
        ("xz-compressed", false, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]),
        ("LZ4-compressed", false, [0x04, 0x22, 0x4D, 0x18]),
    ];

    /// <summary>
    /// Why the part <paramref name="part"/>, starting with <paramref name="head"/>, cannot be read as <paramref name="codec"/>;
    /// null when it may be. An empty part may be anything: that it is empty is said where its header is read.
    /// </summary>
    public static string? Refusal(InputCompression codec, string part, ReadOnlySpan<byte> head)
    {
        if (head.IsEmpty)
        {
            return null;
        }

        if (Unread(head) is { } unread)
        {
            return unread.Archive
                ? $"Loader:Input: '{part}' is {unread.What}, which the loader does not open. {Readable} Take the CSV out of the archive and load that."
                : $"Loader:Input: '{part}' is {unread.What}, which the loader does not decompress. {Readable} Decompress it (or compress it again with gzip or zstd) and load that.";
        }

        return codec switch
        {
            InputCompression.Gzip when !IsGzip(head) =>
                $"Loader:Input: '{part}' is not gzip: it does not start with gzip's signature (1F 8B){Instead(head)}. {ChosenBy(codec)}",
            // Fewer than a signature's bytes may still begin one: the decoder says what is wrong with them.
            InputCompression.Zstd when head.Length >= 4 && !IsZstd(head) =>
                $"Loader:Input: '{part}' is not Zstandard: it does not start with a Zstandard frame's signature (28 B5 2F FD){Instead(head)}. {ChosenBy(codec)}",
            InputCompression.None when IsGzip(head) && head.Length > 2 && head[2] == 0x08 => ReadAsPlain(part, "gzip-compressed (it starts with gzip's signature, 1F 8B)", InputCompression.Gzip, ".gz"),
            InputCompression.None when IsZstd(head) => ReadAsPlain(part, "Zstandard-compressed (it starts with a Zstandard frame's signature)", InputCompression.Zstd, ".zst"),
            _ => null,
        };
    }

    /// <summary>
    /// Why the part <paramref name="part"/>, nothing of which <paramref name="codec"/> could decode (it said
    /// <paramref name="reason"/>), is not that codec's data at all: it reads as plain text. Null when it does not.
    /// </summary>
    public static string? NotDecodable(InputCompression codec, string part, ReadOnlySpan<byte> head, string reason) =>
        LooksLikeText(head)
            ? $"Loader:Input: '{part}' is not {codec} data: nothing of it decodes ({reason.TrimEnd('.')}), and it starts with '{Opening(head)}', which reads as plain text. {ChosenBy(codec)}"
            : null;

    /// <summary>Whether <paramref name="head"/>, the first bytes of a part, read as plain text: UTF-8 (or a UTF-16 byte-order mark) without control characters but tab and line breaks.</summary>
    public static bool LooksLikeText(ReadOnlySpan<byte> head)
    {
        if (head.StartsWith((ReadOnlySpan<byte>)[0xFF, 0xFE]) || head.StartsWith((ReadOnlySpan<byte>)[0xFE, 0xFF]))
        {
            return true;
        }

        head = head.StartsWith("\uFEFF"u8) ? head[3..] : head;
        for (var cut = 0; cut < 4 && cut < head.Length; cut++)
        {
            // The head may end inside a character of several bytes.
            var text = head[..^cut];
            if (!text.IsEmpty && System.Text.Unicode.Utf8.IsValid(text))
            {
                return !text.ContainsAnyInRange((byte)0x00, (byte)0x08) && !text.ContainsAnyInRange((byte)0x0B, (byte)0x0C)
                    && !text.ContainsAnyInRange((byte)0x0E, (byte)0x1F) && !text.Contains((byte)0x7F);
            }
        }

        return false;
    }

    /// <summary>How the part starts, for a message: its first line, shortened.</summary>
    public static string Opening(ReadOnlySpan<byte> head)
    {
        var text = Encoding.UTF8.GetString(head.StartsWith("\uFEFF"u8) ? head[3..] : head);
        var line = text.AsSpan();
        var end = line.IndexOfAny('\r', '\n');
        line = end < 0 ? line : line[..end];
        return line.Length <= 30 ? line.ToString() : string.Concat(line[..30], "…");
    }

    private static bool IsGzip(ReadOnlySpan<byte> head) => head.StartsWith((ReadOnlySpan<byte>)[0x1F, 0x8B]) || head.SequenceEqual((ReadOnlySpan<byte>)[0x1F]);

    /// <summary>A Zstandard frame (28 B5 2F FD), or a skippable frame (5x 2A 4D 18), which a file may start with.</summary>
    private static bool IsZstd(ReadOnlySpan<byte> head) =>
        head.StartsWith((ReadOnlySpan<byte>)[0x28, 0xB5, 0x2F, 0xFD]) || (head.Length >= 4 && (head[0] & 0xF0) == 0x50 && head[1..].StartsWith((ReadOnlySpan<byte>)[0x2A, 0x4D, 0x18]));

    private static (string What, bool Archive)? Unread(ReadOnlySpan<byte> head)
    {
        foreach (var (what, archive, signature) in s_unread)
        {
            if (head.StartsWith(signature))
            {
                return (what, archive);
            }
        }

        // bzip2: "BZh", the block size, then a block's or the end's magic number.
        return head.Length >= 10 && head.StartsWith("BZh"u8) && head[3] is >= (byte)'1' and <= (byte)'9'
            && (head[4..].StartsWith((ReadOnlySpan<byte>)[0x31, 0x41, 0x59, 0x26, 0x53, 0x59]) || head[4..].StartsWith((ReadOnlySpan<byte>)[0x17, 0x72, 0x45, 0x38, 0x50, 0x90]))
            ? ("bzip2-compressed", false)
            : null;
    }

    private static string Instead(ReadOnlySpan<byte> head) =>
        IsGzip(head) ? ", but with gzip's"
        : IsZstd(head) ? ", but with a Zstandard frame's"
        : LooksLikeText(head) ? $"; it starts with '{Opening(head)}', which reads as plain text"
        : "";

    private static string ChosenBy(InputCompression codec) =>
        $"Loader:Csv:Compression chose {codec} for it (Auto goes by a blob's Content-Encoding, else the name's extension): set Loader:Csv:Compression to what the file is (None for plain CSV), or name the file for what it is.";

    private static string ReadAsPlain(string part, string what, InputCompression codec, string extension) =>
        $"Loader:Input: '{part}' is {what}, but it is read as plain text: Loader:Csv:Compression is None, or Auto and neither a blob's Content-Encoding nor the name's extension says it is compressed. Set Loader:Csv:Compression={codec}, or name the file with {extension}.";
}
