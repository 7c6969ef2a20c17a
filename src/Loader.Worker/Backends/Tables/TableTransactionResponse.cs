using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// What the service answered to each operation of a transaction. A successful change set answers every
/// operation; a failed one answers only the failing operation, naming its index as the message prefix
/// (<c>"3:The specified entity already exists."</c>) and, on some services, in <c>Content-ID</c>.
/// </summary>
internal sealed record TableTransactionResponse(IReadOnlyList<TableOperationResponse> Operations)
{
    public bool Succeeded => Operations.All(operation => operation.StatusCode is >= 200 and < 300);

    public static TableTransactionResponse Parse(ReadOnlySpan<byte> body)
    {
        var text = Encoding.UTF8.GetString(body);
        var operations = new List<TableOperationResponse>();
        var position = 0;
        while (true)
        {
            var start = text.IndexOf("HTTP/1.1 ", position, StringComparison.Ordinal);
            if (start < 0)
            {
                break;
            }

            var lineEnd = text.IndexOf('\n', start);
            if (lineEnd < 0)
            {
                lineEnd = text.Length;
            }

            var statusLine = text[start..lineEnd].TrimEnd('\r');
            var status = int.Parse(statusLine.AsSpan(9, 3), NumberStyles.None, CultureInfo.InvariantCulture);
            var headersEnd = text.IndexOf("\r\n\r\n", lineEnd - 1, StringComparison.Ordinal);
            var partEnd = text.IndexOf("\r\n--", Math.Max(headersEnd, lineEnd), StringComparison.Ordinal);
            if (partEnd < 0)
            {
                partEnd = text.Length;
            }

            var headers = headersEnd < 0 ? text[lineEnd..partEnd] : text[lineEnd..headersEnd];
            var content = headersEnd < 0 || headersEnd + 4 > partEnd ? "" : text[(headersEnd + 4)..partEnd];
            operations.Add(ParseOperation(status, headers, content));
            position = partEnd;
        }

        return new TableTransactionResponse(operations);
    }

    private static TableOperationResponse ParseOperation(int status, string headers, string content)
    {
        int? contentId = null;
        foreach (var line in headers.Split('\n'))
        {
            var trimmed = line.Trim();
            if (trimmed.StartsWith("Content-ID:", StringComparison.OrdinalIgnoreCase)
                && int.TryParse(trimmed.AsSpan("Content-ID:".Length), NumberStyles.Integer, CultureInfo.InvariantCulture, out var id))
            {
                contentId = id;
            }
        }

        if (status is >= 200 and < 300)
        {
            return new TableOperationResponse(status, null, "", "", contentId);
        }

        var (code, message) = TableServiceError.Parse(content);
        var (index, text) = TableServiceError.SplitIndex(message);
        return new TableOperationResponse(status, index, code, text, contentId);
    }
}

/// <summary>One operation's answer; <see cref="Index"/> is the failing operation's position when the service named it.</summary>
internal sealed record TableOperationResponse(int StatusCode, int? Index, string Code, string Message, int? ContentId);

/// <summary>Reads the Table service's JSON error body.</summary>
internal static class TableServiceError
{
    public static (string Code, string Message) Parse(string content)
    {
        if (string.IsNullOrWhiteSpace(content))
        {
            return ("", "");
        }

        try
        {
            using var document = JsonDocument.Parse(content.Trim());
            if (document.RootElement.TryGetProperty("odata.error", out var error))
            {
                var code = error.TryGetProperty("code", out var codeElement) ? codeElement.GetString() ?? "" : "";
                var message = error.TryGetProperty("message", out var messageElement)
                    && messageElement.ValueKind == JsonValueKind.Object
                    && messageElement.TryGetProperty("value", out var value)
                    ? value.GetString() ?? ""
                    : "";
                return (code, FirstLine(message));
            }
        }
        catch (JsonException)
        {
            // Not JSON (an XML error or a proxy's page): the raw text is the best message there is.
        }

        return ("", FirstLine(content.Trim()));
    }

    /// <summary>Splits <c>"3:The entity exists."</c> into 3 and the message.</summary>
    public static (int? Index, string Message) SplitIndex(string message)
    {
        var colon = message.IndexOf(':', StringComparison.Ordinal);
        if (colon > 0 && int.TryParse(message.AsSpan(0, colon), NumberStyles.None, CultureInfo.InvariantCulture, out var index))
        {
            return (index, message[(colon + 1)..].Trim());
        }

        return (null, message);
    }

    /// <summary>The service appends request ids and times on further lines; they only add noise to a reject reason.</summary>
    private static string FirstLine(string message)
    {
        var newline = message.IndexOf('\n', StringComparison.Ordinal);
        return (newline < 0 ? message : message[..newline]).Trim();
    }
}
