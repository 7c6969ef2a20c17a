using CsvHelper;
using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.Csv;

/// <summary>The CSV record the parser stands on, as the mapper reads it: every field text.</summary>
internal readonly struct CsvFields(CsvReader reader) : IRecordFields
{
    public RowOrigin Origin => new(reader.RowNumber, reader.LineNumber);

    public ReadOnlySpan<byte> Raw => reader.RawRecord;

    public int FieldCount => reader.FieldCount;

    public int ExtraCount => 0;

    public string ExtraName(int field) => throw new ArgumentOutOfRangeException(nameof(field), "a CSV record has no fields beyond its header's");

    public ReadOnlySpan<byte> GetSpan(int field) => reader.GetSpan(field);

    public string GetString(int field) => reader.GetString(field);

    public FieldKind KindOf(int field) => FieldKind.Text;

    // Implemented here, not left to the interface's defaults: a default member called on a struct boxes it, per record.
    public bool IsTyped => false;

    public TypedField GetTyped(int field) => throw new NotSupportedException("a CSV record's fields are text");

    public int WriteText(int field, Span<char> destination) => throw new NotSupportedException("a CSV record's fields are text: read them as UTF-8");

    public ulong Digest => RecordSequenceHash.Digest(reader.RawRecord);
}
