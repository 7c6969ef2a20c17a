using Loader.Abstractions;

namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>A slot for one request; dispose it to give the slot back.</summary>
/// <remarks>
/// It remembers how many requests were in flight when it was granted, itself included: an answer to a request that went
/// out alone shows what the service takes without any queue of this load's own, which is what latency is judged against.
/// </remarks>
internal sealed class ConcurrencyLease(int inFlightAtStart, Action release) : IDisposable
{
    private int _released;

    public int InFlightAtStart { get; } = inFlightAtStart;

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _released, 1) == 0)
        {
            release();
        }
    }
}

/// <summary>What one attempt tells the limiter.</summary>
/// <param name="Outcome">How the attempt ended, with its latency.</param>
/// <param name="Rows">Rows the request carried: a batch of 100 rows takes longer than one of 3, queue or not.</param>
/// <param name="InFlightAtStart">Requests in flight when its slot was granted, itself included (see <see cref="ConcurrencyLease"/>).</param>
/// <param name="ServiceWidePushback">Whether a throttled answer shows service-wide pressure rather than one hot partition (<see cref="ThrottleSignal"/>).</param>
internal readonly record struct AttemptObservation(BatchOutcome Outcome, int Rows, int InFlightAtStart, bool ServiceWidePushback);
