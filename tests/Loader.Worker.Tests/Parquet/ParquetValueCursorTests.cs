using Loader.Abstractions;
using Loader.Worker.Parquet;
using Loader.Worker.Records;
using Loader.Worker.Tests.Infrastructure;
using Parquet.Schema;

namespace Loader.Worker.Tests.Parquet;

/// <summary>A single-value column as it is read: one value per row with nulls in their places, text shared per distinct value, key text as the typed text.</summary>
public sealed class ParquetValueCursorTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _folder = new();

    private static readonly int?[] s_numbers = [null, 1, null, null, 4, 5, null];
    private static readonly string?[] s_texts = [null, "JFK", "LAX", null, "JFK", "JFK", null];

    private async Task<string> WriteSparseAsync()
    {
        var path = _folder.File("sparse.parquet");
        var schema = new ParquetSchema(new DataField<int>("id"), new DataField<int?>("number"), new DataField<double?>("ratio"), new DataField<string>("text", nullable: true));
        await ParquetTestFile.WriteAsync(path, schema,
            s_numbers.Select((number, row) => new Dictionary<string, object?>
            {
                ["id"] = row + 1, ["number"] = number, ["ratio"] = number / 8.0, ["text"] = s_texts[row],
            }),
            rowGroupSize: 100, _cancellation);
        return path;
    }

    [Fact]
    public async Task Nulls_before_between_and_after_values_stay_in_their_rows()
    {
        await using var reader = await ParquetTestFile.OpenAsync(await WriteSparseAsync());
        using var group = reader.ReadRowGroup(0);

        for (var row = 0; row < s_numbers.Length; row++)
        {
            Assert.Equal(row + 1, group.Cell(0, row).Property.AsInt32());
            Assert.Equal(s_numbers[row], group.Cell(1, row) is { HasValue: true } number ? number.Property.AsInt32() : null);
            Assert.Equal(s_numbers[row] / 8.0, group.Cell(2, row) is { HasValue: true } ratio ? ratio.Property.AsDouble() : null);
            Assert.Equal(s_texts[row], group.Cell(3, row) is { HasValue: true } text ? text.Property.AsString() : null);
        }
    }

    [Fact]
    public async Task Rows_of_the_same_text_share_one_string_however_often_it_is_asked_for()
    {
        await using var reader = await ParquetTestFile.OpenAsync(await WriteSparseAsync());
        using var group = reader.ReadRowGroup(0);

        var first = group.Cell(3, 1).Property.AsString();
        Assert.Same(first, group.Cell(3, 4).Property.AsString());
        Assert.Same(first, group.Cell(3, 5).Property.AsString());
        Assert.Same(first, group.Cell(3, 1).Property.AsString());
        Assert.NotSame(first, group.Cell(3, 2).Property.AsString());
    }

    [Fact]
    public async Task A_typed_field_as_utf8_is_its_typed_text_and_a_text_field_is_the_string_the_row_holds()
    {
        var path = _folder.File("every.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 6, rowGroupSize: 100, _cancellation);
        await using var reader = await ParquetTestFile.OpenAsync(path);
        using var group = reader.ReadRowGroup(0);
        var context = new ParquetRowContext(reader.Plan.Columns);
        context.Block.Load(group, 0, group.RowCount);

        for (var row = 0; row < group.RowCount; row++)
        {
            var fields = new ParquetFields(context.Block, row, row + 1, context);
            for (var column = 0; column < group.ColumnCount; column++)
            {
                var cell = group.Cell(column, row);
                var expected = cell.HasValue ? TypedText.Of(cell.Property) : "";
                Assert.Equal(expected, System.Text.Encoding.UTF8.GetString(fields.GetSpan(column)));
                Assert.Equal(expected, fields.GetString(column));
            }
        }

        var name = reader.Plan.Columns.Select((column, index) => (column, index)).Single(pair => pair.column.Name == "name").index;
        Assert.Same(group.Cell(name, 0).Property.AsString(), new ParquetFields(context.Block, 0, 1, context).GetString(name));
        Assert.Equal(ColumnType.String, reader.Plan.Columns[name].Type);
    }

    [Fact]
    public async Task Text_past_the_distinct_values_shared_reads_back_row_by_row_with_its_nulls()
    {
        var path = _folder.File("unique.parquet");
        var rows = ParquetTextTable.MaxShared * 2;
        static string? Text(int row) => row % 1000 == 7 ? null : row % 3 == 0 ? "again" : $"text {row}";
        await ParquetTestFile.WriteAsync(path, new ParquetSchema(new DataField<string>("text", nullable: true)),
            Enumerable.Range(0, rows).Select(row => new Dictionary<string, object?> { ["text"] = Text(row) }), rowGroupSize: rows, _cancellation);
        await using var reader = await ParquetTestFile.OpenAsync(path);
        using var group = reader.ReadRowGroup(0);

        for (var row = 0; row < rows; row++)
        {
            Assert.Equal(Text(row), group.Cell(0, row) is { HasValue: true } text ? text.Property.AsString() : null);
        }

        Assert.Same(group.Cell(0, 0).Property.AsString(), group.Cell(0, rows - 2).Property.AsString());
    }

    public void Dispose() => _folder.Dispose();
}
