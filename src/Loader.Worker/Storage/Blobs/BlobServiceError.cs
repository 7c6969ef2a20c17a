using System.Globalization;
using System.Xml;
using System.Xml.Linq;
using Azure;

namespace Loader.Worker.Storage.Blobs;

/// <summary>Turns a Blob service error answer into a <see cref="RequestFailedException"/> naming what failed.</summary>
internal static class BlobServiceError
{
    public static RequestFailedException Failure(Response response, string action, string? explanation = null)
    {
        var (code, message) = Parse(response);
        // The service's reason phrase is its message again; it stands in only when there is no message.
        var detail = (code, message) switch
        {
            ("", "") => response.ReasonPhrase,
            ("", _) => message,
            (_, "") => code,
            _ => $"{code}: {message}",
        };
        var text = string.Create(CultureInfo.InvariantCulture, $"{action} failed with {response.Status} {detail}").TrimEnd('.') + ".";
        return new RequestFailedException(response.Status, explanation is null ? text : $"{text} {explanation}", code, null);
    }

    /// <summary>
    /// The code from <c>x-ms-error-code</c> (a HEAD answer has no body) or the XML body, and the body's message.
    /// Only <c>Code</c> and <c>Message</c> are read: an authentication failure's details quote the string that
    /// was signed, which is noise in a log.
    /// </summary>
    private static (string Code, string Message) Parse(Response response)
    {
        response.Headers.TryGetValue("x-ms-error-code", out var code);
        var message = "";
        var body = Body(response);
        if (!string.IsNullOrWhiteSpace(body))
        {
            try
            {
                var error = XDocument.Parse(body).Root;
                code ??= error?.Element("Code")?.Value;
                message = error?.Element("Message")?.Value ?? "";
            }
            catch (XmlException)
            {
                // Not XML (a proxy's page): its first line is the best message there is.
                message = body;
            }
        }

        var newline = message.IndexOf('\n', StringComparison.Ordinal);
        return (code ?? "", (newline < 0 ? message : message[..newline]).Trim());
    }

    /// <summary>A streamed answer (a range read) is not buffered; its error body is small enough to read here.</summary>
    private static string Body(Response response)
    {
        switch (response.ContentStream)
        {
            case null:
                return "";
            case MemoryStream:
                return response.Content.ToString();
            default:
                using (var reader = new StreamReader(response.ContentStream))
                {
                    return reader.ReadToEnd();
                }
        }
    }
}
