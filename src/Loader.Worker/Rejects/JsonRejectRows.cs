using System.Globalization;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.Abstractions;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;

namespace Loader.Worker.Rejects;

/// <summary>
/// How a rejected record of JSON Lines becomes a line of a JSON Lines rejects file, which can be fixed and loaded again:
/// the object as read with the loader's members added (<see cref="RejectColumns"/>: the reason, where it was first read,
/// its line in this load's input); a line that is no object becomes an object holding its text in
/// <see cref="RejectColumns.Record"/>. When the input is itself such a file, an object rejected again keeps the line and
/// file it was first read from. A Parquet input's rejects are written so too (a row as the JSON object of its columns), with
/// <see cref="RejectColumns.Place"/> naming its row group and row; its line members count rows.
/// </summary>
/// <param name="lines">Where each line (a Parquet row) of the input comes from, for an input of several files.</param>
/// <param name="inputName">How the input is named, for an input of one file.</param>
/// <param name="rowPlace">How the input's format names a row when that is not a line (Parquet's row group and row); null for JSON Lines.</param>
internal sealed class JsonRejectRows(InputLineMap lines, string inputName, Func<RowOrigin, string>? rowPlace = null) : IRejectLayout
{
    private static readonly JsonSerializerOptions s_written = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };
    private static readonly JsonNodeOptions s_nodes = new() { PropertyNameCaseInsensitive = false };
    private static readonly JsonDocumentOptions s_strict = new() { AllowDuplicateProperties = false };

    public string ContentType => "application/x-ndjson";

    public IRejectWriter Create(string path, long? keepUpToLine) => new JsonRejectWriter(path, keepUpToLine);

    public string Describe(RowOrigin origin) => rowPlace?.Invoke(origin) ?? RejectRow.LineOf(origin.Line);

    public RejectRow Row(RowOrigin origin, string reason, string recordText, bool split)
    {
        var (line, file, fileLine) = lines.HasSeveralParts && lines.Locate(origin.Line) is { } located
            ? (origin.Line, located.Part, located.Line)
            : (origin.Line, inputName, origin.Line);
        var place = rowPlace?.Invoke(origin);
        var row = split ? Parse(recordText) : null;
        if (row is null)
        {
            row = new JsonObject { [RejectColumns.Record] = recordText };
        }
        else if (Number(row[RejectColumns.Line]) is { } first && first > 0)
        {
            // Rejected again: it keeps where it was first read, a Parquet row its row group and row.
            (line, file, fileLine, place) = (first, Text(row[RejectColumns.File]) ?? "", Number(row[RejectColumns.FileLine]) ?? 0, Text(row[RejectColumns.Place]));
        }

        foreach (var reserved in RejectColumns.All.Append(RejectColumns.Place).Where(name => name != RejectColumns.Record))
        {
            row.Remove(reserved);
        }

        row[RejectColumns.Reason] = reason;
        row[RejectColumns.Line] = line;
        row[RejectColumns.File] = file;
        row[RejectColumns.FileLine] = fileLine;
        row[RejectColumns.InputLine] = origin.Line;
        if (place is not null)
        {
            row[RejectColumns.Place] = place;
        }

        return new RejectRow([row.ToJsonString(s_written)], line, place ?? RejectRow.LineOf(line));
    }

    /// <summary>The line of <paramref name="text"/>, a line of a JSON Lines rejects file, in its input; null when it names none.</summary>
    internal static long? InputLineOf(string text) => Parse(text) is { } row ? Number(row[RejectColumns.InputLine]) : null;

    private static JsonObject? Parse(string text)
    {
        try
        {
            return JsonNode.Parse(text, s_nodes, s_strict) as JsonObject;
        }
        catch (Exception exception) when (exception is JsonException or ArgumentException or InvalidOperationException)
        {
            return null;
        }
    }

    private static long? Number(JsonNode? node) => node is JsonValue value && value.TryGetValue<long>(out var number) ? number
        : node is JsonValue text && text.TryGetValue<string>(out var digits) && long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) ? parsed
        : null;

    private static string? Text(JsonNode? node) => node is JsonValue value && value.TryGetValue<string>(out var text) ? text : null;
}
