using Loader.Worker.Parquet;

namespace Loader.Worker.Tests.Parquet;

/// <summary>A column's values held in slices: every row reads back across slice boundaries, and the slices the mapping has passed go back whole.</summary>
public sealed class ParquetSlicesTests
{
    private const int Rows = (ParquetSlices<int>.SliceRows * 2) + 100;
    private const long SliceBytes = ParquetSlices<int>.SliceRows * sizeof(int);

    [Fact]
    public void Every_row_reads_back_its_value_across_slices()
    {
        var values = Enumerable.Range(0, Rows).Select(row => row * 3).ToArray();
        using var slices = ParquetSlices<int>.Of(values);

        for (var row = 0; row < Rows; row++)
        {
            Assert.Equal(row * 3, slices[row]);
        }
    }

    [Fact]
    public void Only_slices_wholly_before_the_row_go_back_and_the_rows_after_still_read()
    {
        var values = Enumerable.Range(0, Rows).ToArray();
        using var slices = ParquetSlices<int>.Of(values);
        var held = slices.HeldBytes;
        Assert.True(held >= (2 * SliceBytes) + (100 * sizeof(int)));

        Assert.Equal(0, slices.ReleaseBefore(ParquetSlices<int>.SliceRows - 1));
        Assert.Equal(SliceBytes, slices.ReleaseBefore(ParquetSlices<int>.SliceRows));
        Assert.Equal(0, slices.ReleaseBefore(ParquetSlices<int>.SliceRows + 5));
        Assert.Equal(held - SliceBytes, slices.HeldBytes);
        Assert.Equal(ParquetSlices<int>.SliceRows, slices[ParquetSlices<int>.SliceRows]);
        Assert.Equal(Rows - 1, slices[Rows - 1]);

        // Past the last row, every slice goes back: the last one is shorter than the others.
        Assert.Equal(held - SliceBytes, slices.ReleaseBefore(Rows));
        Assert.Equal(0, slices.HeldBytes);
    }

    [Fact]
    public void Disposing_gives_back_what_is_still_held()
    {
        var slices = ParquetSlices<double>.Of(new double[Rows]);
        slices.ReleaseBefore(ParquetSlices<double>.SliceRows);

        slices.Dispose();

        Assert.Equal(0, slices.HeldBytes);
    }
}
