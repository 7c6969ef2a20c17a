using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// A row of a block of a Parquet row group's rows as the mapper reads it: typed fields (<see cref="IsTyped"/>), their text
/// only for keys and conversions, the row as JSON only for a reject, and a digest of the values for the fingerprint.
/// </summary>
internal readonly struct ParquetFields(ParquetRowBlock block, int row, long record, ParquetRowContext context) : IRecordFields
{
    public RowOrigin Origin => new(record, record);

    public ReadOnlySpan<byte> Raw => ParquetRowText.Json(block, row, context.Columns);

    public int FieldCount => block.ColumnCount;

    public int ExtraCount => 0;

    public string ExtraName(int field) => throw new ArgumentOutOfRangeException(nameof(field), "a Parquet row has no fields beyond its schema's");

    public ReadOnlySpan<byte> GetSpan(int field) => context.Text.Utf8(block, row, field);

    public int WriteText(int field, Span<char> destination) => ParquetRowText.Write(block.Cell(field, row), destination);

    public string GetString(int field) => block.Cell(field, row) is { HasValue: true } cell ? TypedText.Of(cell.Property) : "";

    public FieldKind KindOf(int field) => FieldKind.Text;

    public bool IsTyped => true;

    /// <summary>The field's value; a value that cannot be written is refused naming where it stands (row group and row, 1-based).</summary>
    public TypedField GetTyped(int field)
    {
        var cell = block.Cell(field, row);
        return cell.Problem is { } problem
            ? TypedField.Refused($"{block.Describe(row)}: {problem}")
            : cell;
    }

    public ulong Digest => context.Digest.Of(block, row);
}

/// <summary>What a mapping thread keeps across the rows it maps: their text and digest state.</summary>
internal sealed class ParquetRowContext(IReadOnlyList<ParquetColumn> columns)
{
    public IReadOnlyList<ParquetColumn> Columns { get; } = columns;

    public ParquetRowText Text { get; } = new();

    public ParquetRowDigest Digest { get; } = new();

    public ParquetRowBlock Block { get; } = new(columns.Count);
}
