using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.JsonLines;

/// <summary>A parsed JSON line as the mapper reads it: the line's bytes and the leaves its parser found in them.</summary>
internal readonly struct JsonFields(JsonLineParser parsed, byte[] bytes, int start, int length, RowOrigin origin) : IRecordFields
{
    public RowOrigin Origin => origin;

    public ReadOnlySpan<byte> Raw => bytes.AsSpan(start, length);

    public int FieldCount => parsed.ColumnCount;

    public int ExtraCount => parsed.ExtraCount;

    public string ExtraName(int field) => parsed.ExtraName(field);

    public ReadOnlySpan<byte> GetSpan(int field) => parsed.Value(field, Raw);

    public string GetString(int field) => System.Text.Encoding.UTF8.GetString(GetSpan(field));

    public FieldKind KindOf(int field) => parsed.KindOf(field);

    // Implemented here, not left to the interface's defaults: a default member called on a struct boxes it, per record.
    public bool IsTyped => false;

    public TypedField GetTyped(int field) => throw new NotSupportedException("a JSON line's fields are text");

    public int WriteText(int field, Span<char> destination) => throw new NotSupportedException("a JSON line's fields are text: read them as UTF-8");

    public ulong Digest => RecordSequenceHash.Digest(Raw);
}
