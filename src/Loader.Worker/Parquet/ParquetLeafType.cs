using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// A leaf column as its pages are decoded: the column the plan made of it (its kind, store type and name) and what the
/// file's schema says of the values stored (their physical type and length, a DECIMAL's scale, a TIMESTAMP's unit).
/// </summary>
/// <param name="Column">The planned column (a list's or map's leaf: that leaf).</param>
/// <param name="Index">The leaf's place among the file's leaf columns, as the page reader numbers them.</param>
/// <param name="Physical">How the values are stored.</param>
/// <param name="Length">A FIXED_LEN_BYTE_ARRAY's length; 0 for other types.</param>
/// <param name="Scale">A DECIMAL's scale; 0 for other types.</param>
/// <param name="TimestampUnit">A TIMESTAMP's unit; null for other types (INT96 timestamps carry their own).</param>
/// <param name="MaxDefinitionLevel">The definition level at which the leaf holds a value.</param>
/// <param name="MaxRepetitionLevel">Above 0 for a leaf inside a list or map.</param>
internal sealed record ParquetLeafType(ParquetColumn Column, int Index, PhysicalType Physical, int Length, int Scale, TimeUnit? TimestampUnit, short MaxDefinitionLevel, short MaxRepetitionLevel)
{
    /// <summary>The leaf <paramref name="column"/> is read from, described by the page reader's schema.</summary>
    public static ParquetLeafType Of(ParquetColumn column, int index, ColumnDescriptor descriptor)
    {
        ArgumentNullException.ThrowIfNull(column);
        ArgumentNullException.ThrowIfNull(descriptor);
        using var logical = descriptor.LogicalType;
        var scale = logical is DecimalLogicalType dec ? dec.Scale : 0;
        TimeUnit? unit = logical is TimestampLogicalType timestamp ? timestamp.TimeUnit : null;
        var physical = descriptor.PhysicalType;
        return new ParquetLeafType(column, index, physical, physical == PhysicalType.FixedLenByteArray ? descriptor.TypeLength : 0, scale, unit,
            descriptor.MaxDefinitionLevel, descriptor.MaxRepetitionLevel);
    }
}
