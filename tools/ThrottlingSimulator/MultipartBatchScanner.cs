using System.Text;
using System.Text.Json;

namespace Loader.ThrottlingSimulator;

/// <summary>One write found in a batch: its method, its target URL and the size of its JSON body.</summary>
public sealed record ScannedOperation(string Method, string Url, int BodyBytes);

/// <summary>The writes of an entity group transaction and the partition key they address.</summary>
public sealed record BatchScan(IReadOnlyList<ScannedOperation> Operations, string? PartitionKey);

/// <summary>
/// Finds the entity operations in the <c>multipart/mixed</c> body of a <c>$batch</c> request without parsing
/// the MIME structure: an inner request line starts with a write verb and ends with its HTTP version, its
/// headers end at a blank line, and its body runs to the next line that opens a boundary (<c>--</c>). JSON
/// cannot hold a raw line break followed by <c>--</c>, so that is where a body ends whatever the boundary is.
/// </summary>
public static class MultipartBatchScanner
{
    private static readonly string[] s_writeMethods = ["PUT", "POST", "MERGE", "PATCH", "DELETE"];

    public static BatchScan Scan(ReadOnlySpan<byte> body)
    {
        var operations = new List<ScannedOperation>();
        string? partitionKey = null;
        var position = 0;
        while (position < body.Length)
        {
            var line = ReadLine(body, position, out var next);
            if (!TryReadRequestLine(line, out var method, out var url))
            {
                position = next;
                continue;
            }

            var bodyStart = SkipHeaders(body, next);
            var bodyEnd = FindBodyEnd(body, bodyStart);
            var content = body[bodyStart..bodyEnd];
            if (operations.Count == 0)
            {
                // A transaction addresses one partition, so the first operation names it for all of them.
                partitionKey = method == "POST" ? PartitionKeyFromJson(content) : PartitionKeyFromUrl(url);
            }

            operations.Add(new ScannedOperation(method, url, content.Length));
            position = bodyEnd;
        }

        return new BatchScan(operations, partitionKey);
    }

    /// <summary>
    /// The key in <c>…(PartitionKey='k',RowKey='r')</c>: an OData string literal (quotes doubled) that clients
    /// may also percent-encode, quotes included; null when the URL names no partition key.
    /// </summary>
    public static string? PartitionKeyFromUrl(string url)
    {
        ArgumentNullException.ThrowIfNull(url);
        const string Marker = "PartitionKey='";
        var decoded = Uri.UnescapeDataString(url);
        var start = decoded.IndexOf(Marker, StringComparison.Ordinal);
        if (start < 0)
        {
            return null;
        }

        var key = new StringBuilder();
        for (var i = start + Marker.Length; i < decoded.Length; i++)
        {
            if (decoded[i] != '\'')
            {
                key.Append(decoded[i]);
            }
            else if (i + 1 < decoded.Length && decoded[i + 1] == '\'')
            {
                key.Append('\'');
                i++;
            }
            else
            {
                return key.ToString();
            }
        }

        return null;
    }

    /// <summary>The top-level <c>PartitionKey</c> string of an entity's JSON, as an insert carries it; null when absent or not JSON.</summary>
    public static string? PartitionKeyFromJson(ReadOnlySpan<byte> json)
    {
        var reader = new Utf8JsonReader(json);
        try
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            {
                return null;
            }

            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var isPartitionKey = reader.ValueTextEquals("PartitionKey"u8);
                reader.Read();
                if (isPartitionKey)
                {
                    return reader.TokenType == JsonTokenType.String ? reader.GetString() : null;
                }

                reader.Skip();
            }
        }
        catch (JsonException)
        {
            // A body that is not JSON names no partition; the upstream service will say what is wrong with it.
        }

        return null;
    }

    private static bool TryReadRequestLine(ReadOnlySpan<byte> line, out string method, out string url)
    {
        method = url = "";
        var space = line.IndexOf((byte)' ');
        var version = line.LastIndexOf(" HTTP/"u8);
        if (space <= 0 || version <= space)
        {
            return false;
        }

        var verb = Encoding.ASCII.GetString(line[..space]);
        if (Array.IndexOf(s_writeMethods, verb) < 0)
        {
            return false;
        }

        method = verb;
        url = Encoding.UTF8.GetString(line[(space + 1)..version]).Trim();
        return true;
    }

    /// <summary>The position after the blank line that ends the headers starting at <paramref name="position"/>.</summary>
    private static int SkipHeaders(ReadOnlySpan<byte> body, int position)
    {
        while (position < body.Length)
        {
            var line = ReadLine(body, position, out var next);
            position = next;
            if (line.IsEmpty)
            {
                break;
            }
        }

        return position;
    }

    /// <summary>Where the body starting at <paramref name="start"/> ends: before the line break that precedes the next boundary line.</summary>
    private static int FindBodyEnd(ReadOnlySpan<byte> body, int start)
    {
        // Searching from the blank line's own line feed finds a boundary that follows the headers directly (an empty body).
        var from = Math.Max(0, start - 1);
        var found = body[from..].IndexOf("\n--"u8);
        if (found < 0)
        {
            return body.Length;
        }

        var end = from + found;
        if (end > start && body[end - 1] == '\r')
        {
            end--;
        }

        return Math.Max(start, end);
    }

    /// <summary>The line at <paramref name="position"/> without its line break; <paramref name="next"/> is where the following line starts.</summary>
    private static ReadOnlySpan<byte> ReadLine(ReadOnlySpan<byte> body, int position, out int next)
    {
        var rest = body[position..];
        var newline = rest.IndexOf((byte)'\n');
        var line = newline < 0 ? rest : rest[..newline];
        next = newline < 0 ? body.Length : position + newline + 1;
        return line.EndsWith("\r"u8) ? line[..^1] : line;
    }
}
