using System.Text.Json;
using System.Text.Json.Serialization;

namespace Loader.Worker.Reporting;

/// <summary>Writes the JSON report: camelCase names, enums as text.</summary>
public static class ReportWriter
{
    public static readonly JsonSerializerOptions JsonOptions = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Converters = { new JsonStringEnumConverter() },
    };

    public static async Task WriteAsync(LoadReport report, string path, CancellationToken cancellationToken)
    {
        var directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (!string.IsNullOrEmpty(directory))
        {
            Directory.CreateDirectory(directory);
        }

        // Write beside, then move: a reader never sees half a report.
        var temporary = path + ".tmp";
        await using (var stream = File.Create(temporary))
        {
            await JsonSerializer.SerializeAsync(stream, report, JsonOptions, cancellationToken).ConfigureAwait(false);
        }

        File.Move(temporary, path, overwrite: true);
    }

    public static LoadReport Read(string path) =>
        JsonSerializer.Deserialize<LoadReport>(File.ReadAllText(path), JsonOptions)
        ?? throw new InvalidDataException($"{path} holds no report.");
}
