using System.Text;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Outcomes;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Storage.Blobs;
using Microsoft.Extensions.Logging.Abstractions;

namespace Loader.Worker.Tests.Inputs;

/// <summary>Finding the input a setting names, and each way that fails before the first row: what happened, its exit code and message.</summary>
public sealed class InputOpenerTests(BlobAzuriteFixture fixture) : IClassFixture<BlobAzuriteFixture>, IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly string _folder = Directory.CreateTempSubdirectory("input-opener-").FullName;

    private InputOpener Opener() =>
        new(new BlobClientFactory(new BlobOptions { ConnectionString = fixture.Azurite.ConnectionString }), NullLogger<InputOpener>.Instance);

    /// <summary>The exit code the host makes of a failure, as the process would exit with it.</summary>
    private static int ExitCodeOf(Exception failure) => ExitCodes.Of(LoadFailures.KindOf(failure) ?? throw new InvalidOperationException($"not a load failure: {failure}"));

    private string Url(string container, string path) => $"{fixture.Azurite.BlobEndpoint}/{container}/{path}";

    private async Task UploadAsync(string container, string name, string text) =>
        await fixture.UploadAsync(container, name, BinaryData.FromString(text), "text/csv", _cancellation);

    [Theory]
    [InlineData("export.csv.gz", nameof(InputCompression.Auto), nameof(InputCompression.Gzip))]
    [InlineData("EXPORT.CSV.ZST", nameof(InputCompression.Auto), nameof(InputCompression.Zstd))]
    [InlineData("export.csv", nameof(InputCompression.Auto), nameof(InputCompression.None))]
    [InlineData("export.csv.gz", nameof(InputCompression.None), nameof(InputCompression.None))]
    [InlineData("export.csv", nameof(InputCompression.Brotli), nameof(InputCompression.Brotli))]
    public async Task A_files_codec_comes_from_the_setting_or_else_its_extension(string name, string settingName, string expectedName)
    {
        var setting = Enum.Parse<InputCompression>(settingName);
        var expected = Enum.Parse<InputCompression>(expectedName);
        var path = Path.Combine(_folder, name);
        await File.WriteAllTextAsync(path, "a,b\n1,2\n", _cancellation);

        var source = await Opener().OpenAsync(path, setting, _cancellation);

        var part = Assert.Single(source.Parts);
        Assert.Equal(expected, part.Compression);
        Assert.Equal(new FileInfo(path).Length, part.Length);
    }

    [Fact]
    public async Task A_file_that_does_not_exist_is_exit_3_naming_the_setting_and_the_path()
    {
        var path = Path.Combine(_folder, "missing", "export.csv");

        var failure = await Assert.ThrowsAsync<InputNotFoundException>(() => Opener().OpenAsync(path, InputCompression.Auto, _cancellation));

        Assert.Equal(ExitCodes.Unavailable, ExitCodeOf(failure));
        Assert.Equal($"Loader:Input '{path}' does not exist.", failure.Message);
    }

    [Fact]
    public async Task A_blob_that_does_not_exist_is_exit_3_naming_it()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);

        var failure = await Assert.ThrowsAsync<InputNotFoundException>(() => Opener().OpenAsync(Url(container, "missing.csv"), InputCompression.Auto, _cancellation));

        Assert.Equal(ExitCodes.Unavailable, ExitCodeOf(failure));
        Assert.Equal($"Loader:Input: blob '{Url(container, "missing.csv")}' does not exist.", failure.Message);
    }

    [Fact]
    public async Task A_prefix_with_no_blobs_with_content_is_exit_3()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "in/empty.csv", "");

        var failure = await Assert.ThrowsAsync<InputNotFoundException>(() => Opener().OpenAsync(Url(container, "in/"), InputCompression.Auto, _cancellation));

        Assert.Equal(ExitCodes.Unavailable, ExitCodeOf(failure));
        Assert.Contains("no blobs (with content) under", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_prefix_skips_the_markers_and_logs_data_tools_leave_beside_their_output()
    {
        // What Spark on Databricks leaves under an output folder, beside its part files, and a Delta table's log.
        var container = await fixture.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "out/part-00001.csv", "a,b\n3,4\n");
        await UploadAsync(container, "out/part-00000.csv", "a,b\n1,2\n");
        await UploadAsync(container, "out/_SUCCESS", "");
        await UploadAsync(container, "out/_committed_8812", "{\"added\":[\"part-00000.csv\"]}");
        await UploadAsync(container, "out/_started_8812", "x");
        await UploadAsync(container, "out/.part-00000.csv.crc", "crc");
        await UploadAsync(container, "out/_delta_log/00000000000000000000.json", "{\"commitInfo\":{}}");

        var input = await Opener().OpenAsync(Url(container, "out/"), InputCompression.Auto, _cancellation);

        Assert.Equal(["out/part-00000.csv", "out/part-00001.csv"], input.Parts.Select(part => part.Name));
    }

    [Fact]
    public async Task A_prefix_that_itself_starts_with_an_underscore_is_read_as_named()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "_staging/rows.csv", "a,b\n1,2\n");

        var input = await Opener().OpenAsync(Url(container, "_staging/"), InputCompression.Auto, _cancellation);

        Assert.Equal(["_staging/rows.csv"], input.Parts.Select(part => part.Name));
    }

    [Fact]
    public async Task A_prefix_is_read_in_name_order_and_parts_with_another_header_are_named_in_that_order()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "in/2.csv", "a,b\n3,4\n");
        await UploadAsync(container, "in/1.csv", "\uFEFFa,b\r\n1,2\r\n"); // a BOM and CRLF do not make another header
        var good = await Opener().OpenAsync(Url(container, "in/"), InputCompression.Auto, _cancellation);
        Assert.Equal(["in/1.csv", "in/2.csv"], good.Parts.Select(part => part.Name));

        await UploadAsync(container, "in/4.csv", "x,y\n5,6\n");
        await UploadAsync(container, "in/3.csv", "a;b\n5;6\n");
        var failure = await Assert.ThrowsAsync<InputMismatchException>(() => Opener().OpenAsync(Url(container, "in/"), InputCompression.Auto, _cancellation));

        Assert.Equal(ExitCodes.InvalidConfiguration, ExitCodeOf(failure));
        var third = failure.Message.IndexOf("'in/3.csv' starts with 'a;b'", StringComparison.Ordinal);
        var fourth = failure.Message.IndexOf("'in/4.csv' starts with 'x,y'", StringComparison.Ordinal);
        Assert.True(third >= 0 && fourth > third, failure.Message);
        Assert.Contains("not the header of 'in/1.csv', 'a,b'", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_compressed_blob_cut_short_before_its_header_ends_is_exit_7()
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "in/1.csv", "a,b\n1,2\n");
        var gzip = Infrastructure.Compressed.Bytes(InputCompression.Gzip, Encoding.UTF8.GetBytes("a,b\n3,4\n"));
        await fixture.UploadAsync(container, "in/2.csv.gz", BinaryData.FromBytes(gzip.AsMemory(0, gzip.Length / 2)), "application/gzip", _cancellation);

        var failure = await Assert.ThrowsAsync<DamagedInputException>(() => Opener().OpenAsync(Url(container, "in/"), InputCompression.Auto, _cancellation));

        Assert.Equal(ExitCodes.InputDamaged, ExitCodeOf(failure));
        Assert.Contains("in/2.csv.gz", failure.Message, StringComparison.Ordinal);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
