using Loader.Abstractions;

namespace Loader.Worker.Records;

/// <summary>A field a format reads typed (Parquet): its property, nothing (a null), or why the value cannot be written.</summary>
internal readonly record struct TypedField(EntityProperty Property, bool HasValue, string? Problem)
{
    public static TypedField Null => default;

    public static TypedField Of(EntityProperty property) => new(property, true, null);

    public static TypedField Refused(string problem) => new(default, false, problem);
}
