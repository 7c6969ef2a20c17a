using Loader.Worker.Inputs.Compression;
using Loader.Worker.Parquet;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Parquet;

/// <summary>The row group after the one being mapped, read ahead: handed over when taken, its damage thrown only then, let go when not taken.</summary>
public sealed class ParquetReadAheadTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _folder = new();

    private async Task<ParquetFileReader> OpenDamagedAsync()
    {
        var (corrupted, _) = await ParquetTestFile.WriteDamagedRowGroup2Async(_folder.File("pages.parquet"), _cancellation);
        return await ParquetFileReader.OpenAsync(File.OpenRead(corrupted), "pages.parquet", ParquetDecimalMode.String, ".", _cancellation);
    }

    [Fact]
    public async Task The_group_read_ahead_is_the_one_taken_and_another_is_read_when_taken()
    {
        await using var file = await OpenDamagedAsync();
        using var ahead = new ParquetReadAhead();

        ahead.Start(file, 2);
        using (var third = ahead.Take(file, 2))
        {
            Assert.Equal(2, third.Index);
            Assert.Equal(12, third.Cell(0, 3).Property.AsInt32());
        }

        ahead.Start(file, 2);
        using var first = ahead.Take(file, 0);
        Assert.Equal(0, first.Index);
        Assert.Equal(4, first.Cell(0, 3).Property.AsInt32());
    }

    /// <summary>Taken or dropped before its thread has started, as a fast mapping stage may: the read still hands over or lets go cleanly.</summary>
    [Fact]
    public async Task A_group_taken_or_dropped_as_soon_as_its_read_starts_is_handed_over_or_let_go()
    {
        await using var file = await OpenDamagedAsync();
        using var ahead = new ParquetReadAhead();

        for (var round = 0; round < 200; round++)
        {
            ahead.Start(file, 0);
            using (var taken = ahead.Take(file, 0))
            {
                Assert.Equal(4, taken.Cell(0, 3).Property.AsInt32());
            }

            ahead.Start(file, 0);
            ahead.Discard();
        }
    }

    [Fact]
    public async Task A_damaged_group_read_ahead_is_thrown_when_taken_and_not_when_let_go()
    {
        await using var file = await OpenDamagedAsync();
        using var ahead = new ParquetReadAhead();

        ahead.Start(file, 1);
        ahead.Discard();
        ahead.Start(file, 1);
        using (var first = ahead.Take(file, 0))
        {
            Assert.Equal(1, first.Cell(0, 0).Property.AsInt32());
        }

        ahead.Start(file, 1);
        var failure = Assert.Throws<DamagedInputException>(() => ahead.Take(file, 1));
        Assert.StartsWith("'pages.parquet' row group 2 of 3 (rows 5 to 8) cannot be read: column 'id' is damaged (", failure.Message);
    }

    public void Dispose() => _folder.Dispose();
}
