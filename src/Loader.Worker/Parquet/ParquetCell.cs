using Loader.Abstractions;

namespace Loader.Worker.Parquet;

/// <summary>One column's value in one row: a typed property, nothing (a null), or why the value cannot be written.</summary>
internal readonly record struct ParquetCell(EntityProperty Property, bool HasValue, string? Problem)
{
    public static ParquetCell Null => default;

    public static ParquetCell Of(EntityProperty property) => new(property, true, null);

    public static ParquetCell Refused(string problem) => new(default, false, problem);
}
