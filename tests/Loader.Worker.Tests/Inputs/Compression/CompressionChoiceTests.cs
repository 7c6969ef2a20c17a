using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;

namespace Loader.Worker.Tests.Inputs.Compression;

public sealed class CompressionChoiceTests
{
    [Theory]
    [InlineData("flights.csv", nameof(InputCompression.None))]
    [InlineData("export-0001.csv.gz", nameof(InputCompression.Gzip))]
    [InlineData("EXPORT.CSV.GZ", nameof(InputCompression.Gzip))]
    [InlineData("daily/2026-11-01.csv.br", nameof(InputCompression.Brotli))]
    [InlineData("a.csv.zz", nameof(InputCompression.Deflate))]
    [InlineData("a.csv.deflate", nameof(InputCompression.Deflate))]
    [InlineData("a.csv.zst", nameof(InputCompression.Zstd))]
    [InlineData("a.gz.csv", nameof(InputCompression.None))]
    public void Auto_goes_by_the_extension(string name, string expectedName)
    {
        var expected = Enum.Parse<InputCompression>(expectedName);
        Assert.Equal(expected, CompressionChoice.For(InputCompression.Auto, name));
    }

    [Theory]
    [InlineData("gzip", nameof(InputCompression.Gzip))]
    [InlineData("x-gzip", nameof(InputCompression.Gzip))]
    [InlineData("br", nameof(InputCompression.Brotli))]
    [InlineData("deflate", nameof(InputCompression.Deflate))]
    [InlineData("ZSTD", nameof(InputCompression.Zstd))]
    public void Under_auto_a_blobs_content_encoding_wins_over_its_extension(string encoding, string expectedName)
    {
        var expected = Enum.Parse<InputCompression>(expectedName);
        Assert.Equal(expected, CompressionChoice.For(InputCompression.Auto, "data.csv", encoding));
        Assert.Equal(expected, CompressionChoice.For(InputCompression.Auto, "data.csv.zst", encoding));
    }

    [Theory]
    [InlineData("")]
    [InlineData("identity")]
    [InlineData(null)]
    public void No_content_encoding_leaves_the_extension_to_decide(string? encoding)
    {
        Assert.Equal(InputCompression.Gzip, CompressionChoice.For(InputCompression.Auto, "data.csv.gz", encoding));
    }

    [Fact]
    public void The_setting_overrides_both()
    {
        Assert.Equal(InputCompression.None, CompressionChoice.For(InputCompression.None, "data.csv.gz", "gzip"));
        Assert.Equal(InputCompression.Zstd, CompressionChoice.For(InputCompression.Zstd, "data.csv.gz", "gzip"));
        Assert.Equal(InputCompression.Gzip, CompressionChoice.For(InputCompression.Gzip, "data.csv"));
    }

    [Fact]
    public void A_content_encoding_the_loader_cannot_decode_is_named()
    {
        var problem = Assert.Throws<InvalidOperationException>(() => CompressionChoice.For(InputCompression.Auto, "data.csv", "compress"));

        Assert.Contains("'data.csv' has Content-Encoding 'compress'", problem.Message, StringComparison.Ordinal);
        Assert.Contains("Loader:Csv:Compression", problem.Message, StringComparison.Ordinal);
    }
}
