using System.Net;
using System.Net.Sockets;
using System.Security.Authentication;
using Azure;
using Loader.Abstractions;
using Loader.Worker.Backends;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends;

/// <summary>Which exceptions say the service gave no answer (worth retrying), how that is worded, and which are answers or defects.</summary>
public sealed class NoAnswerTests
{
    private static readonly CancellationToken s_notRequested = CancellationToken.None;

    public static TheoryData<string, Exception> Unanswered => new()
    {
        { "Azure.Core, status 0", new RequestFailedException(0, "Connection reset by peer", new IOException("Connection reset by peer")) },
        { "Azure.Core's network timeout", new TaskCanceledException("The operation was cancelled because it exceeded the configured timeout of 0:01:00.") },
        { "a client's own cancellation", new OperationCanceledException("The operation was canceled.") },
        { "refused", new HttpRequestException("Connection refused (127.0.0.1:10002)", new SocketException((int)SocketError.ConnectionRefused)) },
        { "reset, bare", new SocketException((int)SocketError.ConnectionReset) },
        { "a name that does not resolve", new HttpRequestException("Name or service not known (nowhere.invalid:443)", new SocketException((int)SocketError.HostNotFound)) },
        { "TLS", new AuthenticationException("remote certificate is invalid") },
        { "a body cut short", new HttpIOException(HttpRequestError.ResponseEnded, "The response ended prematurely.") },
        { "a timeout", new TimeoutException("The operation has timed out.") },
        { "deep in the chain", new InvalidOperationException("sending failed", new AggregateException(new SocketException((int)SocketError.TimedOut))) },
    };

    [Theory]
    [MemberData(nameof(Unanswered))]
    public void Each_shape_of_no_answer_is_one(string shape, Exception exception)
    {
        Assert.True(NoAnswer.Is(exception, s_notRequested), shape);
    }

    [Fact]
    public void A_cancellation_the_caller_asked_for_is_not_a_missing_answer()
    {
        using var stop = new CancellationTokenSource();
        stop.Cancel();

        Assert.False(NoAnswer.Is(new TaskCanceledException(), stop.Token));
        Assert.False(NoAnswer.Is(new HttpRequestException("refused"), stop.Token));
    }

    [Fact]
    public void Answers_and_defects_are_not_missing_answers()
    {
        Assert.False(NoAnswer.Is(new RequestFailedException(503, "Server Busy"), s_notRequested));
        Assert.False(NoAnswer.Is(new CosmosException("busy", HttpStatusCode.ServiceUnavailable, 0, "a", 0), s_notRequested));
        Assert.False(NoAnswer.Is(new InvalidOperationException("a defect"), s_notRequested));
        Assert.False(NoAnswer.Is(new ArgumentException("a defect"), s_notRequested));
    }

    [Fact]
    public void An_answer_that_arrived_but_cannot_be_parsed_is_none_only_when_it_arrived()
    {
        foreach (var unreadable in new Exception[] { new InvalidOperationException("multipart"), new FormatException("boundary"), new InvalidDataException("part") })
        {
            Assert.True(NoAnswer.Is(unreadable, s_notRequested, answerArrived: true), unreadable.GetType().Name);
            Assert.False(NoAnswer.Is(unreadable, s_notRequested, answerArrived: false), unreadable.GetType().Name);
        }

        Assert.False(NoAnswer.Is(new ArgumentException("a defect"), s_notRequested, answerArrived: true));
        using var stop = new CancellationTokenSource();
        stop.Cancel();
        Assert.False(NoAnswer.Is(new FormatException("boundary"), stop.Token, answerArrived: true));
    }

    [Fact]
    public void The_outcome_is_transient_with_the_innermost_message_and_the_latency()
    {
        var exception = new HttpRequestException("An error occurred while sending the request.", new SocketException((int)SocketError.ConnectionRefused));

        var outcome = NoAnswer.Outcome(exception, TimeSpan.FromMilliseconds(40));

        Assert.Equal((BatchStatus.Transient, 0, TimeSpan.FromMilliseconds(40)), (outcome.Status, outcome.StatusCode, outcome.Latency));
        Assert.Equal($"no answer from the service: {new SocketException((int)SocketError.ConnectionRefused).Message}", outcome.Error);
    }

    [Fact]
    public void A_request_given_up_on_names_the_limit_and_its_setting()
    {
        var outcome = NoAnswer.WithinTimeLimit(TimeSpan.FromSeconds(2.5));

        Assert.Equal((BatchStatus.Transient, TimeSpan.FromSeconds(2.5)), (outcome.Status, outcome.Latency));
        Assert.Equal("no answer within 2.5 s (Loader:Retry:AttemptTimeout)", outcome.Error);
    }
}
