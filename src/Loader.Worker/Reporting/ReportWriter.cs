using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace Loader.Worker.Reporting;

/// <summary>Writes the JSON report: camelCase names, enums as text.</summary>
internal static class ReportWriter
{
    public static readonly JsonSerializerOptions JsonOptions = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Converters = { new JsonStringEnumConverter() },
        TypeInfoResolver = JsonTypeInfoResolver.Combine(ReportJsonContext.Default, new DefaultJsonTypeInfoResolver()),
    };

    public static Task WriteAsync(LoadReport report, Outputs.OutputFile file, CancellationToken cancellationToken) =>
        file.WriteJsonAsync(report, JsonOptions, cancellationToken);

    public static LoadReport Read(string path) =>
        JsonSerializer.Deserialize<LoadReport>(File.ReadAllText(path), JsonOptions)
        ?? throw new InvalidDataException($"{path} holds no report.");
}
