using System.Text;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;

namespace Loader.Worker.Tests.Inputs.Compression;

/// <summary>What a part's first bytes say it is, against what it is read as: each refusal names the part, what it is, and what the loader reads.</summary>
public sealed class SignaturesTests
{
    private static readonly byte[] s_csv = Encoding.UTF8.GetBytes("year,month,day,carrier,flight,origin,dest\n2024,1,3,WN,1713,DEN,SFO\n");

    [Theory]
    [InlineData(new byte[] { 0x50, 0x4B, 0x03, 0x04, 0x14, 0x00 }, "a zip archive, which the loader does not open")]
    [InlineData(new byte[] { 0x50, 0x4B, 0x05, 0x06, 0x00, 0x00 }, "a zip archive, which the loader does not open")]
    [InlineData(new byte[] { 0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0x00 }, "a 7z archive, which the loader does not open")]
    [InlineData(new byte[] { 0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01 }, "a RAR archive, which the loader does not open")]
    [InlineData(new byte[] { 0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00 }, "xz-compressed, which the loader does not decompress")]
    [InlineData(new byte[] { 0x42, 0x5A, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59 }, "bzip2-compressed, which the loader does not decompress")]
    [InlineData(new byte[] { 0x04, 0x22, 0x4D, 0x18, 0x64 }, "LZ4-compressed, which the loader does not decompress")]
    public void Archives_and_codecs_the_loader_does_not_read_are_named_with_what_it_reads(byte[] head, string what)
    {
        foreach (var codec in Enum.GetValues<InputCompression>().Where(codec => codec != InputCompression.Auto))
        {
            var refusal = Signatures.Refusal(codec, "export.bin", head);

            Assert.NotNull(refusal);
            Assert.StartsWith($"Loader:Input: 'export.bin' is {what}.", refusal, StringComparison.Ordinal);
            Assert.Contains("gzip (.gz), Zstandard (.zst), Brotli (.br) or zlib/deflate (.zz, .deflate)", refusal, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void A_plain_file_read_as_gzip_is_not_gzip_and_the_message_shows_how_it_starts()
    {
        var refusal = Signatures.Refusal(InputCompression.Gzip, "flights.csv.gz", s_csv);

        Assert.Equal(
            "Loader:Input: 'flights.csv.gz' is not gzip: it does not start with gzip's signature (1F 8B); it starts with 'year,month,day,carrier,flight,…', which reads as plain text. "
            + "Loader:Csv:Compression chose Gzip for it (Auto goes by a blob's Content-Encoding, else the name's extension): set Loader:Csv:Compression to what the file is (None for plain CSV), or name the file for what it is.",
            refusal);
    }

    [Fact]
    public void A_zstandard_file_read_as_gzip_and_the_other_way_round_say_what_they_start_with()
    {
        var zstd = Infrastructure.Compressed.Bytes(InputCompression.Zstd, s_csv);
        var gzip = Infrastructure.Compressed.Bytes(InputCompression.Gzip, s_csv);

        Assert.Contains("does not start with gzip's signature (1F 8B), but with a Zstandard frame's.", Signatures.Refusal(InputCompression.Gzip, "a.gz", zstd), StringComparison.Ordinal);
        Assert.Contains("does not start with a Zstandard frame's signature (28 B5 2F FD), but with gzip's.", Signatures.Refusal(InputCompression.Zstd, "a.zst", gzip), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(nameof(InputCompression.Gzip), "gzip-compressed (it starts with gzip's signature, 1F 8B)", "Set Loader:Csv:Compression=Gzip, or name the file with .gz.")]
    [InlineData(nameof(InputCompression.Zstd), "Zstandard-compressed (it starts with a Zstandard frame's signature)", "Set Loader:Csv:Compression=Zstd, or name the file with .zst.")]
    public void A_compressed_file_read_as_plain_text_is_named_with_its_codec(string codecName, string what, string fix)
    {
        var compressed = Infrastructure.Compressed.Bytes(Enum.Parse<InputCompression>(codecName), s_csv);

        var refusal = Signatures.Refusal(InputCompression.None, "export.csv", compressed);

        Assert.StartsWith($"Loader:Input: 'export.csv' is {what}, but it is read as plain text", refusal, StringComparison.Ordinal);
        Assert.EndsWith(fix, refusal, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(nameof(InputCompression.Gzip))]
    [InlineData(nameof(InputCompression.Zstd))]
    [InlineData(nameof(InputCompression.Brotli))]
    [InlineData(nameof(InputCompression.Deflate))]
    public void What_may_be_the_codec_is_left_to_it(string codecName)
    {
        var codec = Enum.Parse<InputCompression>(codecName);

        Assert.Null(Signatures.Refusal(codec, "a", Infrastructure.Compressed.Bytes(codec, s_csv)));
        Assert.Null(Signatures.Refusal(codec, "a", [])); // empty: said where the header is read
        Assert.Null(Signatures.Refusal(InputCompression.None, "a", s_csv));
    }

    [Theory]
    [InlineData("id\n")]
    [InlineData("a\n")]
    [InlineData("P*M")]
    public void A_plain_file_shorter_than_a_signature_is_read_as_plain_text_not_taken_for_zstandard(string text)
    {
        // A header alone ("id" and its line break) is a file of three bytes: too few to be anything but itself.
        Assert.Null(Signatures.Refusal(InputCompression.None, "header-only.csv", Encoding.UTF8.GetBytes(text)));
    }

    [Theory]
    [InlineData("pk,rk,n\n1,2,3\n")]
    [InlineData("\uFEFFpk,rk\tnote\r\n")]
    [InlineData("città,année,naïve\n")]
    public void Text_reads_as_text(string text)
    {
        Assert.True(Signatures.LooksLikeText(Encoding.UTF8.GetBytes(text)));
    }

    [Fact]
    public void A_character_cut_at_the_end_of_the_first_bytes_is_still_text_and_binary_is_not()
    {
        var cut = Encoding.UTF8.GetBytes("name,città")[..^1]; // 'à' is two bytes: the first kept

        Assert.True(Signatures.LooksLikeText(cut));
        Assert.False(Signatures.LooksLikeText([0x00, 0x01, 0x02, 0x41]));
        Assert.False(Signatures.LooksLikeText("pk,rk\u0003"u8));
        Assert.False(Signatures.LooksLikeText([0xC3, 0x28, 0x41, 0x41, 0x41, 0x41]));
    }
}
