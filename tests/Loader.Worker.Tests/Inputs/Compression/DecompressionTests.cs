using System.Globalization;
using System.Text;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Inputs.Compression;

/// <summary>
/// Every codec reads back exactly what was compressed, through the loader's own part streams; a file cut short or
/// damaged anywhere is reported with its name and byte, and is never taken for the end of the input.
/// </summary>
public sealed class DecompressionTests : IDisposable
{
    private static readonly byte[] s_text = Encoding.UTF8.GetBytes(string.Concat(
        Enumerable.Range(0, 60_000).Select(i => string.Create(CultureInfo.InvariantCulture, $"p{i % 97},r{i:D6},{i * 7919 % 100_003},free text {i % 13}\n"))));

    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string, bool> Codecs() => new()
    {
        { nameof(InputCompression.Gzip), true },
        { nameof(InputCompression.Brotli), true },
        { nameof(InputCompression.Deflate), true },
        { nameof(InputCompression.Deflate), false },
        { nameof(InputCompression.Zstd), true },
    };

    private LocalFilePart Part(string name, byte[] bytes, InputCompression codec)
    {
        var path = _directory.File(name);
        File.WriteAllBytes(path, bytes);
        return new LocalFilePart(path, bytes.Length) { Compression = codec };
    }

    private static byte[] ReadAll(InputPart part, InputProgress? progress = null, int readSize = 81_920)
    {
        using var stream = part.Open(bufferSize: 4096, progress);
        var output = new MemoryStream();
        var buffer = new byte[readSize];
        int read;
        while ((read = stream.Read(buffer)) > 0)
        {
            output.Write(buffer, 0, read);
        }

        return output.ToArray();
    }

    [Fact]
    public void The_runtime_switch_that_reports_truncated_streams_is_on_in_this_host()
    {
        Assert.True(Decompression.RuntimeReportsTruncation, "System.IO.Compression.UseStrictValidation must be set (Directory.Build.props)");
    }

    [Theory]
    [MemberData(nameof(Codecs))]
    public void Each_codec_reads_back_the_text_it_compressed_and_progress_counts_compressed_bytes(string codecName, bool zlib)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        var bytes = Compressed.Bytes(codec, s_text, zlib);
        var part = Part("in" + Compressed.Extension(codec, zlib), bytes, codec);
        var progress = new InputProgress(bytes.Length);

        Assert.Equal(s_text, ReadAll(part, progress));
        Assert.Equal(bytes.Length, progress.BytesRead);
        Assert.Equal(1.0, progress.Fraction);
        Assert.True(bytes.Length < s_text.Length / 3, "the test text must compress");
    }

    [Theory]
    [InlineData(nameof(InputCompression.Gzip))]
    [InlineData(nameof(InputCompression.Zstd))]
    public void A_file_of_several_members_or_frames_reads_to_its_end(string codecName)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        var part = Part("cat" + Compressed.Extension(codec), Compressed.Concatenated(codec, s_text, pieces: 5), codec);

        Assert.Equal(s_text, ReadAll(part, readSize: 1_000));
    }

    [Theory]
    [MemberData(nameof(Codecs))]
    public void A_file_cut_short_anywhere_is_reported_with_its_name_and_never_read_as_a_shorter_input(string codecName, bool zlib)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        var bytes = Compressed.Bytes(codec, s_text, zlib);
        foreach (var kept in new[] { bytes.Length - 1, bytes.Length - 4, bytes.Length - 9, bytes.Length * 2 / 3, bytes.Length / 2, 100 })
        {
            var part = Part($"cut-{kept}" + Compressed.Extension(codec, zlib), bytes[..kept], codec);

            var damaged = Assert.Throws<DamagedInputException>(() => ReadAll(part));

            Assert.Equal(part.Name, damaged.Part);
            Assert.Equal(kept, damaged.Offset);
            Assert.Contains($"'{part.Name}' cannot be decompressed", damaged.Message, StringComparison.Ordinal);
            Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"end at byte {kept:N0}, the end of the file"), damaged.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void A_gzip_file_of_several_members_cut_inside_a_later_member_is_reported()
    {
        var bytes = Compressed.Concatenated(InputCompression.Gzip, s_text, pieces: 3);
        var part = Part("cat-cut.gz", bytes[..(bytes.Length - 20)], InputCompression.Gzip);

        var damaged = Assert.Throws<DamagedInputException>(() => ReadAll(part));

        Assert.Equal(bytes.Length - 20, damaged.Offset);
    }

    [Theory]
    [MemberData(nameof(Codecs))]
    public void Damaged_bytes_in_the_middle_are_reported_with_the_byte_that_was_being_read(string codecName, bool zlib)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        var bytes = Compressed.Bytes(codec, s_text, zlib);
        var middle = bytes.Length / 2;
        for (var i = 0; i < 64; i++)
        {
            bytes[middle + i] ^= 0x5A;
        }

        var part = Part("damaged" + Compressed.Extension(codec, zlib), bytes, codec);

        // Raw deflate and Brotli carry no checksum: damage may still decode to other text, but never to a quiet early end.
        try
        {
            var text = ReadAll(part);
            Assert.True(codec is InputCompression.Deflate or InputCompression.Brotli, $"{codec} decoded damaged data without a word");
            Assert.NotEqual(s_text, text);
        }
        catch (DamagedInputException damaged)
        {
            Assert.InRange(damaged.Offset, middle, bytes.Length);
            Assert.Equal(part.Name, damaged.Part);
        }
    }

    [Theory]
    [InlineData(nameof(InputCompression.Brotli))]
    [InlineData(nameof(InputCompression.Deflate))]
    public void A_second_stream_after_the_first_is_refused_where_the_codec_does_not_chain_streams(string codecName)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        var half = s_text.Length / 2;
        var bytes = Compressed.Bytes(codec, s_text.AsSpan(0, half)).Concat(Compressed.Bytes(codec, s_text.AsSpan(half))).ToArray();
        var part = Part("two" + Compressed.Extension(codec), bytes, codec);

        var damaged = Assert.Throws<DamagedInputException>(() => ReadAll(part));

        Assert.Contains("more bytes follow the end", damaged.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Bytes_after_the_end_of_a_zstandard_stream_are_refused()
    {
        var bytes = Compressed.Bytes(InputCompression.Zstd, s_text).Concat(Encoding.ASCII.GetBytes("not zstd at all")).ToArray();
        var part = Part("tail.zst", bytes, InputCompression.Zstd);

        Assert.Throws<DamagedInputException>(() => ReadAll(part));
    }

    /// <summary>What the part gave out before it failed, and how it failed (null when it read to its end).</summary>
    private static (byte[] Text, Exception? Failure) ReadUntilFailure(InputPart part)
    {
        using var stream = part.Open(bufferSize: 4096);
        var output = new MemoryStream();
        var buffer = new byte[81_920];
        try
        {
            int read;
            while ((read = stream.Read(buffer)) > 0)
            {
                output.Write(buffer, 0, read);
            }

            return (output.ToArray(), null);
        }
        catch (IOException failure)
        {
            return (output.ToArray(), failure);
        }
    }

    public static TheoryData<string, bool, int> CodecsAndAppendedBytes()
    {
        var cases = new TheoryData<string, bool, int>();
        foreach (var (codec, zlib) in new[] { (nameof(InputCompression.Gzip), true), (nameof(InputCompression.Brotli), true), (nameof(InputCompression.Deflate), true), (nameof(InputCompression.Deflate), false), (nameof(InputCompression.Zstd), true) })
        {
            foreach (var appended in new[] { 1, 2, 3, 8, 1_024, 40_000 })
            {
                cases.Add(codec, zlib, appended);
            }
        }

        return cases;
    }

    [Theory]
    [MemberData(nameof(CodecsAndAppendedBytes))]
    public void Bytes_after_the_end_of_the_compressed_data_are_damage_after_all_the_text_before_them(string codecName, bool zlib, int appended)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        var compressed = Compressed.Bytes(codec, s_text, zlib);
        var rows = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Range(0, (appended / 10) + 1).Select(i => string.Create(CultureInfo.InvariantCulture, $"p{i},r{i:D6},{i},more\n"))));
        var bytes = compressed.Concat(rows.AsSpan(0, appended).ToArray()).ToArray();
        var part = Part($"tail-{appended}" + Compressed.Extension(codec, zlib), bytes, codec);

        var (text, failure) = ReadUntilFailure(part);

        var damaged = Assert.IsType<DamagedInputException>(failure);
        Assert.Equal(s_text, text);
        Assert.Equal(part.Name, damaged.Part);
        Assert.Contains("more bytes follow the end of its", damaged.Message, StringComparison.Ordinal);
        if (codec == InputCompression.Gzip)
        {
            // The last member's trailer places its end exactly.
            Assert.Equal(compressed.Length, damaged.Offset);
            Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"which end at byte {compressed.Length:N0} of {bytes.Length:N0}: the {appended:N0} bytes after them are not Gzip data"), damaged.Message, StringComparison.Ordinal);
        }
        else
        {
            // Within the last bytes the decompressor was handed.
            Assert.InRange(damaged.Offset, compressed.Length, Math.Min(bytes.Length, compressed.Length + (16 * 1024)));
            Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"at or before byte {damaged.Offset:N0} of {bytes.Length:N0}"), damaged.Message, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(5)]
    [InlineData(300)]
    public void Bytes_after_the_last_of_several_gzip_members_are_placed_at_its_end(int pieces)
    {
        var compressed = Compressed.Concatenated(InputCompression.Gzip, s_text, pieces);
        var bytes = compressed.Concat(Encoding.ASCII.GetBytes("p1,r000001,1,appended\n")).ToArray();
        var part = Part($"members-{pieces}.gz", bytes, InputCompression.Gzip);

        var (text, failure) = ReadUntilFailure(part);

        Assert.Equal(s_text, text);
        Assert.Equal(compressed.Length, Assert.IsType<DamagedInputException>(failure).Offset);
    }

    [Fact]
    public void Bytes_after_gzip_data_read_from_a_pipe_are_found_too()
    {
        var compressed = Compressed.Bytes(InputCompression.Gzip, s_text);
        var bytes = compressed.Concat(new byte[100]).ToArray();
        var part = new OnceReadPart("standard input", "standard input", new MemoryStream(bytes)) { Compression = InputCompression.Gzip };

        var (text, failure) = ReadUntilFailure(part);

        Assert.Equal(s_text, text);
        var damaged = Assert.IsType<DamagedInputException>(failure);
        Assert.Equal(compressed.Length, damaged.Offset);
        Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"which end at byte {compressed.Length:N0}: the bytes after them are not Gzip data"), damaged.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Codecs))]
    public void Files_of_any_size_read_to_their_end_without_a_word(string codecName, bool zlib)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        foreach (var size in new[] { 0, 1, 37, 5_000, 16_383, 16_384, 16_385, 70_001, s_text.Length })
        {
            var bytes = Compressed.Bytes(codec, s_text.AsSpan(0, size), zlib);
            var part = Part($"size-{size}" + Compressed.Extension(codec, zlib), bytes, codec);

            Assert.Equal(s_text[..size], ReadAll(part));
        }
    }

    [Fact]
    public void A_skippable_zstandard_frame_after_the_data_is_part_of_the_file()
    {
        byte[] skippable = [0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4];
        var part = Part("skippable.zst", Compressed.Bytes(InputCompression.Zstd, s_text).Concat(skippable).ToArray(), InputCompression.Zstd);

        Assert.Equal(s_text, ReadAll(part));
    }

    [Theory]
    [MemberData(nameof(Codecs))]
    public void A_plain_file_read_as_a_codec_is_said_not_to_be_that_codec(string codecName, bool zlib)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        var part = Part("plain" + Compressed.Extension(codec, zlib), s_text, codec);

        var refused = Assert.Throws<InputFormatException>(() => ReadAll(part));

        Assert.Equal(part.Name, refused.Part);
        Assert.Contains($"'{part.Name}' is not", refused.Message, StringComparison.Ordinal);
        Assert.Contains("it starts with 'p0,r000000,0,free text 0', which reads as plain text", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Loader:Csv:Compression", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_plain_part_is_read_as_it_is_and_counted()
    {
        var part = Part("plain.csv", s_text, InputCompression.None);
        var progress = new InputProgress(s_text.Length);

        Assert.Equal(s_text, ReadAll(part, progress));
        Assert.Equal(s_text.Length, progress.BytesRead);
    }
}
