namespace Loader.ThrottlingSimulator;

/// <summary>
/// A running test proxy (the throttling simulator, the Cosmos DB stand-in): where clients reach it, a fresh start of
/// its counters and budget, and a way to run until asked to stop. Disposing stops it.
/// </summary>
public abstract class ProxyHost : IAsyncDisposable
{
    private readonly RunningServer _server;
    private readonly Action _reset;

    /// <param name="server">The started server; the host stops it when disposed.</param>
    /// <param name="reset">What <see cref="Reset"/> does: see <see cref="ResetOf{TSnapshot}"/>.</param>
    protected ProxyHost(RunningServer server, Action reset)
    {
        _server = server;
        _reset = reset;
    }

    /// <summary>Where clients reach the proxy, such as <c>http://127.0.0.1:10102/</c> (<c>https</c> for the stand-in).</summary>
    public Uri Endpoint => _server.Endpoint;

    /// <summary>Zeroes the counters and fills the buckets, as <c>POST {prefix}/reset</c> does.</summary>
    public void Reset() => _reset();

    /// <summary>Runs until <paramref name="cancellationToken"/> fires or the process is asked to stop.</summary>
    public Task WaitForShutdownAsync(CancellationToken cancellationToken = default) => _server.WaitForShutdownAsync(cancellationToken);

    public async ValueTask DisposeAsync()
    {
        await _server.DisposeAsync();
        GC.SuppressFinalize(this);
    }

    /// <summary>The fresh start both the host and its <see cref="StatsEndpoint"/> give: counters zeroed, buckets full.</summary>
    public static Action ResetOf<TSnapshot>(ProxyCounters<TSnapshot> counters, RequestBudget budget)
        where TSnapshot : class
    {
        ArgumentNullException.ThrowIfNull(counters);
        ArgumentNullException.ThrowIfNull(budget);
        return () =>
        {
            counters.Reset();
            budget.Fill();
        };
    }
}
