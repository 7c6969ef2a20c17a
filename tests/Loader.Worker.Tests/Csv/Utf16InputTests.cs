using System.Text;
using Loader.Worker.Csv;

namespace Loader.Worker.Tests.Csv;

/// <summary>UTF-16 input read as UTF-8, with what is not UTF-16 kept as a byte that is not UTF-8 either.</summary>
public sealed class Utf16InputTests
{
    private static readonly Encoding s_littleEndian = new UnicodeEncoding(bigEndian: false, byteOrderMark: true);
    private static readonly Encoding s_bigEndian = new UnicodeEncoding(bigEndian: true, byteOrderMark: true);

    /// <summary>Encodes UTF-16 code units as they are, unpaired surrogates included (an Encoding would replace them).</summary>
    private static byte[] Units(string text, bool bigEndian)
    {
        var bytes = new List<byte>(bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]);
        foreach (var unit in text)
        {
            bytes.AddRange(bigEndian ? [(byte)(unit >> 8), (byte)unit] : [(byte)unit, (byte)(unit >> 8)]);
        }

        return [.. bytes];
    }

    /// <summary>Reads everything, <paramref name="readSize"/> bytes at a time from a source that gives <paramref name="pieceSize"/> at a time.</summary>
    private static (byte[] Bytes, bool IsUtf16) ReadAll(byte[] input, int pieceSize = int.MaxValue, int readSize = 4096)
    {
        using var stream = new Utf16Input(new PiecewiseStream(input, pieceSize));
        var output = new MemoryStream();
        var buffer = new byte[readSize];
        int read;
        while ((read = stream.Read(buffer)) > 0)
        {
            output.Write(buffer, 0, read);
        }

        return (output.ToArray(), stream.IsUtf16);
    }

    public static TheoryData<bool, int, int> Shapes => new()
    {
        { false, int.MaxValue, 4096 },
        { true, int.MaxValue, 4096 },
        { false, 3, 1 },
        { true, 5, 7 },
        { false, 65_537, 100_000 },
        { true, 65_537, 100_000 },
    };

    [Theory]
    [MemberData(nameof(Shapes))]
    public void Valid_utf16_reads_as_its_utf8_whatever_the_pieces_it_comes_in(bool bigEndian, int pieceSize, int readSize)
    {
        // Long enough that surrogate pairs and line breaks straddle every chunk boundary at least once.
        var text = new StringBuilder("pk,rk,v\n");
        for (var i = 0; text.Length < 200_000; i++)
        {
            text.Append(i % 3 == 0 ? "p,1,\U0001F600 東京 é\n" : "q,22,x\U0001F680\n");
        }

        var input = (bigEndian ? s_bigEndian : s_littleEndian).GetPreamble().Concat((bigEndian ? s_bigEndian : s_littleEndian).GetBytes(text.ToString())).ToArray();
        var (bytes, isUtf16) = ReadAll(input, pieceSize, readSize);

        Assert.True(isUtf16);
        Assert.Equal(Encoding.UTF8.GetBytes(text.ToString()), bytes);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Each_unpaired_surrogate_becomes_one_byte_that_no_utf8_holds(bool bigEndian)
    {
        // A high surrogate alone, a low one alone, a low before a high, and a high at the very end.
        var (bytes, _) = ReadAll(Units("a\uD800b\uDC00c\uDC00\uD800d\uD83D", bigEndian), pieceSize: 3, readSize: 5);

        Assert.Equal("a\xFF" + "b\xFF" + "c\xFF\xFF" + "d\xFF", Encoding.Latin1.GetString(bytes));
    }

    [Fact]
    public void An_odd_byte_at_the_end_is_not_utf16_either()
    {
        var (bytes, _) = ReadAll([0xFF, 0xFE, (byte)'a', 0, (byte)'b']);

        Assert.Equal("a\xFF", Encoding.Latin1.GetString(bytes));
    }

    [Theory]
    [InlineData(new byte[] { (byte)'a', (byte)',', 0xC3, 0xA9, 0xFF, (byte)'\n' })] // UTF-8, invalid bytes and all
    [InlineData(new byte[] { 0xEF, 0xBB, 0xBF, (byte)'a' })] // UTF-8 with its mark
    [InlineData(new byte[] { 0xFF, 0xFE, 0x00, 0x00, (byte)'a', 0, 0, 0 })] // UTF-32 little-endian: the parser's own
    [InlineData(new byte[] { 0xFF })]
    [InlineData(new byte[] { })]
    public void Other_input_passes_through_as_it_is(byte[] input)
    {
        var (bytes, isUtf16) = ReadAll(input, pieceSize: 1, readSize: 3);

        Assert.False(isUtf16);
        Assert.Equal(input, bytes);
    }

    /// <summary>A stream that gives at most <c>pieceSize</c> bytes a read, as a network or a decompressor may.</summary>
    private sealed class PiecewiseStream(byte[] data, int pieceSize) : MemoryStream(data)
    {
        public override int Read(Span<byte> buffer) => base.Read(buffer[..Math.Min(buffer.Length, pieceSize)]);

        public override int Read(byte[] buffer, int offset, int count) => base.Read(buffer, offset, Math.Min(count, pieceSize));
    }
}
