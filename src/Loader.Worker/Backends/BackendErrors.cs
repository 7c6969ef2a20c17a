using Azure;

namespace Loader.Worker.Backends;

/// <summary>Turns an exception from a service call into one line a user can act on, without stack traces or secrets.</summary>
internal static class BackendErrors
{
    public static string Describe(Exception exception) => exception switch
    {
        RequestFailedException { Status: 0 } failed => $"no connection: {failed.GetBaseException().Message}",
        RequestFailedException { Status: 401 or 403 } failed => $"access denied ({failed.Status}): check the credentials and the role assignments. {failed.Message}",
        RequestFailedException failed => failed.Message,
        Azure.Identity.AuthenticationFailedException auth => $"no credential could sign in: {FirstLine(auth.Message)}",
        Microsoft.Azure.Cosmos.CosmosException { StatusCode: System.Net.HttpStatusCode.Unauthorized or System.Net.HttpStatusCode.Forbidden } denied =>
            $"access denied ({(int)denied.StatusCode}): check the key, or the account's data-plane role assignment. {FirstLine(denied.ResponseBody ?? denied.Message)}",
        Microsoft.Azure.Cosmos.CosmosException cosmos => $"{(int)cosmos.StatusCode} {cosmos.StatusCode}: {FirstLine(cosmos.ResponseBody ?? cosmos.Message)}",
        InvalidOperationException invalid => invalid.Message,
        HttpRequestException http => $"no connection: {http.GetBaseException().Message}",
        _ => exception.GetBaseException().Message,
    };

    private static string FirstLine(string text)
    {
        var newline = text.IndexOf('\n', StringComparison.Ordinal);
        return newline < 0 ? text : text[..newline].TrimEnd();
    }
}
