using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.JsonLines;

/// <summary>A parsed JSON line as the mapper reads it.</summary>
internal readonly struct JsonFields(JsonLine line) : IRecordFields
{
    public RowOrigin Origin => line.Origin;

    public ReadOnlySpan<byte> Raw => line.Raw;

    public int FieldCount => line.ColumnCount;

    public int ExtraCount => line.ExtraCount;

    public string ExtraName(int field) => line.ExtraName(field);

    public ReadOnlySpan<byte> GetSpan(int field) => line.Value(field);

    public string GetString(int field) => System.Text.Encoding.UTF8.GetString(line.Value(field));

    public FieldKind KindOf(int field) => line.KindOf(field);
}
