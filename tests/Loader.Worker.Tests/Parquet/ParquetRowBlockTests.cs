using Loader.Worker.Inputs;
using Loader.Worker.Parquet;
using Loader.Worker.Records;
using Loader.Worker.Tests.Infrastructure;
using Parquet.Schema;

namespace Loader.Worker.Tests.Parquet;

/// <summary>Rows mapped from blocks of a batch: every row's cells, nulls and lists in their rows, across blocks, batches and row groups, in order.</summary>
public sealed class ParquetRowBlockTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _folder = new();

    // Row groups of 700 and 400 rows: blocks of 256, 256 and 188 rows, then 256 and 144.
    private const int Rows = 1_100;

    private static int? Number(int id) => id % 7 == 0 ? null : id * 3;

    private static string? Text(int id) => id % 11 == 0 ? null : id % 13 == 0 ? $"only {id}" : $"t{id % 5}";

    private static List<ReadOnlyMemory<char>?>? Tags(int id) => id % 17 == 0 ? null : [$"a{id}".AsMemory(), "b".AsMemory()];

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public async Task Every_row_reads_its_own_cells_across_blocks_batches_and_row_groups_in_order(int threads)
    {
        var path = _folder.File("blocks.parquet");
        var schema = new ParquetSchema(new DataField<int>("id"), new DataField<int?>("number"), new DataField<string>("text", nullable: true),
            new ListField("tags", new DataField<string>("element", nullable: true)));
        await ParquetTestFile.WriteAsync(path, schema,
            Enumerable.Range(1, Rows).Select(id => new Dictionary<string, object?> { ["id"] = id, ["number"] = Number(id), ["text"] = Text(id), ["tags"] = Tags(id) }),
            rowGroupSize: 700, _cancellation);
        var source = new InputSource(path, [new LocalFilePart(path, new FileInfo(path).Length) { Format = InputFormat.Parquet }]);
        using var reader = ParquetRecordReader.Open(source, 1 << 16, ParquetDecimalMode.String, ".");

        var rows = reader.ReadAll(new RowText(), threads).Select(result => result.Value).ToList();

        var expected = Enumerable.Range(1, Rows).Select(id =>
            $"{id}|{id}|{Number(id)}|{Text(id)}|{(Tags(id) is null ? "" : $"[\"a{id}\",\"b\"]")}");
        Assert.Equal(expected, rows);
    }

    public void Dispose() => _folder.Dispose();

    /// <summary>A row as its record number and its fields' text.</summary>
    private sealed class RowText : IRecordMapper<string>
    {
        public string Map<TRecord>(in TRecord record)
            where TRecord : struct, IRecordFields
        {
            var fields = new List<string> { record.Origin.Record.ToString(System.Globalization.CultureInfo.InvariantCulture) };
            for (var field = 0; field < record.FieldCount; field++)
            {
                fields.Add(record.GetString(field));
            }

            return string.Join('|', fields);
        }
    }
}
