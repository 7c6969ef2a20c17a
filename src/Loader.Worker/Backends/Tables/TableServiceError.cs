using System.Globalization;
using System.Text.Json;

namespace Loader.Worker.Backends.Tables;

/// <summary>Reads the Table service's OData error body: its code and the first line of its message.</summary>
internal static class TableServiceError
{
    /// <summary>
    /// The code and the first line of the message (the service appends request ids and times on further lines, noise in a
    /// reject reason); empty strings when the body is not the service's JSON error (an XML error or a proxy's page).
    /// </summary>
    public static (string Code, string Text) Read(ReadOnlySpan<byte> content)
    {
        string code = "", text = "";
        try
        {
            var reader = new Utf8JsonReader(content.Trim("\r\n "u8));
            if (content.Length > 0 && JsonDocument.TryParseValue(ref reader, out var document))
            {
                using (document)
                {
                    if (document.RootElement.ValueKind == JsonValueKind.Object && document.RootElement.TryGetProperty("odata.error", out var error))
                    {
                        code = error.TryGetProperty("code", out var codeElement) ? codeElement.GetString() ?? "" : "";
                        text = error.TryGetProperty("message", out var messageElement) && messageElement.ValueKind == JsonValueKind.Object
                            && messageElement.TryGetProperty("value", out var value)
                            ? value.GetString() ?? ""
                            : "";
                    }
                }
            }
        }
        catch (JsonException)
        {
            // Not JSON: the status (and a code from the headers) is what there is.
        }

        return (code, FirstLine(text));
    }

    /// <summary>A failed operation's message starts with its index, <c>"3:The specified entity already exists."</c>: split off.</summary>
    public static (int? Index, string Text) SplitIndex(string text)
    {
        var colon = text.IndexOf(':', StringComparison.Ordinal);
        return colon > 0 && int.TryParse(text.AsSpan(0, colon), NumberStyles.None, CultureInfo.InvariantCulture, out var index)
            ? (index, text[(colon + 1)..].Trim())
            : (null, text);
    }

    public static string FirstLine(string text)
    {
        var newline = text.IndexOf('\n', StringComparison.Ordinal);
        return (newline < 0 ? text : text[..newline]).Trim();
    }
}
