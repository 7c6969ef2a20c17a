namespace Loader.Worker.Inputs;

/// <summary>The format a part of the input is read as: <c>Loader:Format</c> when it names one; under <c>Auto</c> the extension of the name, a compression suffix taken off first.</summary>
internal static class FormatChoice
{
    private static readonly Dictionary<string, InputFormat> s_extensions = new(StringComparer.OrdinalIgnoreCase)
    {
        [".csv"] = InputFormat.Csv,
        [".tsv"] = InputFormat.Csv,
        [".jsonl"] = InputFormat.JsonLines,
        [".ndjson"] = InputFormat.JsonLines,
        [".parquet"] = InputFormat.Parquet,
    };

    /// <summary>The format of the part <paramref name="name"/> (never <see cref="InputFormat.Auto"/>).</summary>
    public static InputFormat For(InputFormat setting, string name)
    {
        if (setting != InputFormat.Auto)
        {
            return setting;
        }

        var stem = Compression.CompressionChoice.IsCompressionExtension(Path.GetExtension(name)) ? Path.GetFileNameWithoutExtension(name) : name;
        return s_extensions.TryGetValue(Path.GetExtension(stem), out var format) ? format : InputFormat.Csv;
    }

    /// <summary>How messages name where a format's columns come from: a CSV header, the first JSON object's properties, a Parquet schema.</summary>
    public static ColumnWords ColumnWordsOf(InputFormat format) => format switch
    {
        InputFormat.JsonLines => new("first object's properties", "do", "first object", "First object's properties"),
        InputFormat.Parquet => new("schema", "does", "schema", "Schema columns"),
        _ => new("header", "does", "header", "Header columns"),
    };

    /// <summary>How messages name a format.</summary>
    public static string Describe(InputFormat format) => format switch
    {
        InputFormat.JsonLines => "JSON Lines",
        InputFormat.Parquet => "Parquet",
        _ => "CSV",
    };
}
