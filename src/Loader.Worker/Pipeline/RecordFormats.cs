using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.JsonLines;
using Loader.Worker.Parquet;
using Loader.Worker.Records;

namespace Loader.Worker.Pipeline;

/// <summary>The reader of each input format, set up from the load's settings.</summary>
internal static class RecordFormats
{
    /// <exception cref="InputRefusedException">The format is one this loader does not read yet.</exception>
    public static IRecordFormat For(InputFormat format, LoaderOptions settings) => format switch
    {
        InputFormat.Csv or InputFormat.Auto => new CsvFormat(settings.Csv),
        InputFormat.JsonLines => new JsonLinesFormat(JsonSettings(settings)),
        InputFormat.Parquet => new ParquetFormat(settings.Parquet, PathSeparator(settings), settings.Columns, RefuseNested(settings), settings.SkippedColumns()),
        _ => throw new InputRefusedException(
            $"Loader:Input is {FormatChoice.Describe(format)}, which this loader does not read yet; set Loader:Format to Csv if it is CSV after all."),
    };

    /// <summary>Cosmos DB keeps nested objects and arrays (paths joined with its path separator nest again); Table Storage flattens or refuses them.</summary>
    private static JsonLinesSettings JsonSettings(LoaderOptions settings)
    {
        var keepsJson = settings.Backend == BackendKind.Cosmos;
        return new JsonLinesSettings(PathSeparator(settings), keepsJson, RefuseNested(settings), settings.Csv.MaxRecordBytes);
    }

    /// <summary><c>Loader:Json:Nested=Refuse</c> holds for Table Storage only: Cosmos DB keeps nested values as they are.</summary>
    private static bool RefuseNested(LoaderOptions settings) => settings.Backend != BackendKind.Cosmos && settings.Json.Nested == JsonNesting.Refuse;

    /// <summary>
    /// What joins a nested value's path in a column name (a JSON object's members, a Parquet struct's fields): Cosmos DB's
    /// path separator, so the value is written nested; in Table Storage, whose property names cannot hold '.', the
    /// flattening separator.
    /// </summary>
    private static string PathSeparator(LoaderOptions settings) =>
        settings.Backend == BackendKind.Cosmos ? settings.Cosmos.PathSeparator : settings.Json.FlattenSeparator;
}
