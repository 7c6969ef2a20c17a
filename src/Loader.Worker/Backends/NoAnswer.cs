using System.Globalization;
using System.Net.Sockets;
using System.Security.Authentication;
using Azure;
using Loader.Abstractions;

namespace Loader.Worker.Backends;

/// <summary>
/// The one place that tells a request that ended without an answer from the service — a network timeout inside the
/// client, a connection reset or refused, a name that did not resolve, a TLS handshake that failed, a response cut
/// short — from a defect, and words it. The first is the network's or a slow service's doing: worth retrying, and
/// counted as such. Clients report these in many shapes (Azure.Core: <see cref="RequestFailedException"/> with status 0,
/// or a <see cref="TaskCanceledException"/> when its <c>NetworkTimeout</c> fires; the Cosmos SDK: an
/// <see cref="OperationCanceledException"/> of its own or an <see cref="HttpRequestException"/>; HttpClient:
/// <see cref="HttpRequestException"/> or <see cref="IOException"/>), so the whole chain of inner exceptions is looked at.
/// </summary>
internal static class NoAnswer
{
    /// <summary>
    /// True when <paramref name="exception"/> says no answer came. A cancellation is one only when the caller did not ask
    /// for it (<paramref name="requested"/> is not cancelled): it is then a timeout inside the client.
    /// </summary>
    /// <param name="exception">What the call threw.</param>
    /// <param name="requested">The caller's token.</param>
    /// <param name="answerArrived">
    /// The answer's headers were read (a client that can tell): then an answer the client could not parse (cut short
    /// inside a multipart body, or a proxy's page with a success status) is no usable answer either.
    /// </param>
    public static bool Is(Exception exception, CancellationToken requested, bool answerArrived = false)
    {
        if (requested.IsCancellationRequested)
        {
            return false;
        }

        if (answerArrived && exception is InvalidOperationException or FormatException or InvalidDataException)
        {
            return true;
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

    /// <summary>The outcome of a request <see cref="Is"/> says got no answer: transient, to retry.</summary>
    public static BatchOutcome Outcome(Exception exception, TimeSpan latency) => new()
    {
        Status = BatchStatus.Transient,
        Latency = latency,
        Error = Describe(exception),
    };

    /// <summary>The outcome of a request the loader gave up waiting for after <paramref name="limit"/> (<c>Loader:Retry:AttemptTimeout</c>).</summary>
    public static BatchOutcome WithinTimeLimit(TimeSpan limit) => new()
    {
        Status = BatchStatus.Transient,
        Latency = limit,
        Error = string.Create(CultureInfo.InvariantCulture, $"no answer within {limit.TotalSeconds:0.#} s (Loader:Retry:AttemptTimeout)"),
    };
}
