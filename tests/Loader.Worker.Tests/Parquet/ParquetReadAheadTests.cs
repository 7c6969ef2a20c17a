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

    /// <summary>Groups of several slices: the one mapped gives its rows back as they are mapped, the next is read under the budget, and every byte is given back in the end.</summary>
    [Fact]
    public async Task Under_a_budget_the_group_read_ahead_is_handed_over_whole_as_the_one_mapped_gives_its_rows_back()
    {
        const int groupRows = ParquetSlices<int>.SliceRows * 2;
        var path = _folder.File("large.parquet");
        await ParquetTestFile.WriteAsync(path, new global::Parquet.Schema.ParquetSchema(new global::Parquet.Schema.DataField<int>("id"), new global::Parquet.Schema.DataField<string>("text", nullable: true)),
            Enumerable.Range(0, groupRows * 2).Select(row => new Dictionary<string, object?> { ["id"] = row, ["text"] = $"t{row % 50}" }), rowGroupSize: groupRows, _cancellation);
        await using var file = await ParquetFileReader.OpenAsync(File.OpenRead(path), "large.parquet", ParquetDecimalMode.String, ".", _cancellation);
        var budget = new ParquetReadBudget();
        budget.AtLeast(file.ReadAheadBytes());
        using var ahead = new ParquetReadAhead(budget);

        using (var first = ahead.Take(file, 0))
        {
            var held = budget.Held;
            Assert.True(held > 0);
            ahead.Start(file, 1);
            for (var row = 0; row < groupRows; row += 4096)
            {
                Assert.Equal(row, first.Cell(0, row).Property.AsInt32());
                Assert.Equal($"t{row % 50}", first.Cell(1, row).Property.AsString());
                first.ReleaseBefore(row + 4096);
            }
        }

        using (var second = ahead.Take(file, 1))
        {
            for (var row = 0; row < groupRows; row++)
            {
                Assert.Equal(groupRows + row, second.Cell(0, row).Property.AsInt32());
            }
        }

        Assert.Equal(0, budget.Held);
    }

    public void Dispose() => _folder.Dispose();
}
