using System.Net.Sockets;
using System.Security.Authentication;
using Azure;

namespace Loader.Worker.Backends;

/// <summary>
/// Tells a request that ended without an answer from the service — a network timeout inside the client, a connection
/// reset or refused, a name that did not resolve, a TLS handshake that failed, a response cut short — from a defect.
/// The first is the network's or a slow service's doing: worth retrying, and counted as such. Clients report these
/// in many shapes (Azure.Core: <see cref="RequestFailedException"/> with status 0, or a <see cref="TaskCanceledException"/>
/// when its <c>NetworkTimeout</c> fires; HttpClient: <see cref="HttpRequestException"/> or <see cref="IOException"/>),
/// so the whole chain of inner exceptions is looked at.
/// </summary>
internal static class NoAnswer
{
    /// <summary>
    /// True when <paramref name="exception"/> says no answer came. A cancellation is one only when the caller did not ask
    /// for it (<paramref name="requested"/> is not cancelled): it is then a timeout inside the client.
    /// </summary>
    public static bool Is(Exception exception, CancellationToken requested)
    {
        if (requested.IsCancellationRequested)
        {
            return false;
        }

        for (var current = exception; current is not null; current = current.InnerException)
        {
            if (current is RequestFailedException { Status: 0 } or HttpRequestException or IOException or SocketException
                or AuthenticationException or OperationCanceledException or TimeoutException)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>One line for the report and the log: the innermost exception's message says what the network did.</summary>
    public static string Describe(Exception exception) => $"no answer from the service: {exception.GetBaseException().Message}";
}
