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

    /// <summary>What a format's columns are read from, as messages name it: a CSV header, the first JSON object's properties, a Parquet schema.</summary>
    public static string ColumnsOf(InputFormat format) => format switch
    {
        InputFormat.JsonLines => "first object's properties",
        InputFormat.Parquet => "schema",
        _ => "header",
    };

    /// <summary>What holds a format's columns, as "which the {holder} does not have" names it.</summary>
    public static string ColumnHolder(InputFormat format) => format switch
    {
        InputFormat.JsonLines => "first object",
        InputFormat.Parquet => "schema",
        _ => "header",
    };

    /// <summary>How a message's list of a format's columns is headed.</summary>
    public static string ColumnListLabel(InputFormat format) => format switch
    {
        InputFormat.JsonLines => "First object's properties",
        InputFormat.Parquet => "Schema columns",
        _ => "Header columns",
    };

    /// <summary>How messages name a format.</summary>
    public static string Describe(InputFormat format) => format switch
    {
        InputFormat.JsonLines => "JSON Lines",
        InputFormat.Parquet => "Parquet",
        _ => "CSV",
    };
}
