using Loader.Abstractions;
using Loader.Worker.Dispatch.Concurrency;

namespace Loader.Worker.Tests.Dispatch.Concurrency;

/// <summary>What the concurrency tests tell the limiter and its rule of, and how long they wait for a slot.</summary>
internal static class ConcurrencyAnswers
{
    public static readonly BatchOutcome Written = new() { Status = BatchStatus.Written };

    public static readonly BatchOutcome Throttled = new() { Status = BatchStatus.Throttled, ThrottledResponses = 1 };

    /// <summary>An answer without a measured latency: only its status teaches anything.</summary>
    public static AttemptObservation Unmeasured(BatchOutcome outcome, bool serviceWidePushback) =>
        new(outcome, Rows: 100, InFlightAtStart: 1, serviceWidePushback);

    /// <summary>A written batch's answer after <paramref name="latency"/>, to a request sent with <paramref name="inFlight"/> in flight.</summary>
    public static AttemptObservation Measured(TimeSpan latency, int inFlight, int rows = 100) => new(BatchOutcome.Written(202, latency, null), rows, inFlight, false);

    /// <summary>One worker behind the endpoint, as Azurite: every request in flight waits for the others.</summary>
    public static TimeSpan OneWorker(double serviceMs, int inFlight) => TimeSpan.FromMilliseconds(2 + (serviceMs * inFlight));

    /// <summary>A wait the test expects to end: a regression that leaves it waiting fails the test instead of hanging the run.</summary>
    public static Task<T> Bounded<T>(Task<T> wait) => wait.WaitAsync(TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken);
}
