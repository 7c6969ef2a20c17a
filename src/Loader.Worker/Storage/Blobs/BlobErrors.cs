using System.Globalization;
using Azure;

namespace Loader.Worker.Storage.Blobs;

/// <summary>
/// Restates the SDK's <see cref="RequestFailedException"/> as one line naming what failed. The SDK's own message goes
/// on with the response's content and headers, which a log line about a missing blob does not need.
/// </summary>
internal static class BlobErrors
{
    public static RequestFailedException Failure(RequestFailedException exception, string action, string? explanation = null)
    {
        if (exception.Status == 0)
        {
            return exception; // no answer: BackendErrors says so from the inner exception
        }

        var message = FirstLine(exception.Message);
        var code = exception.ErrorCode ?? "";
        var detail = code.Length == 0 ? message : message.Length == 0 ? code : $"{code}: {message}";
        var text = string.Create(CultureInfo.InvariantCulture, $"{action} failed with {exception.Status} {detail}").TrimEnd('.') + ".";
        return new RequestFailedException(exception.Status, explanation is null ? text : $"{text} {explanation}", code, exception);
    }

    private static string FirstLine(string text)
    {
        var newline = text.IndexOf('\n', StringComparison.Ordinal);
        return (newline < 0 ? text : text[..newline]).Trim();
    }
}
