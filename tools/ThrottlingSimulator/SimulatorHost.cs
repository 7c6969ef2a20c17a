namespace Loader.ThrottlingSimulator;

/// <summary>
/// A running simulator: Kestrel on <see cref="Endpoint"/> in front of the upstream service. Start it from a
/// test with <see cref="StartAsync(SimulatorOptions, CancellationToken)"/>, or as a process through the command line.
/// </summary>
public sealed class SimulatorHost : IProxyHost
{
    private readonly RunningServer _server;
    private readonly RequestBudget _budget;

    private SimulatorHost(RunningServer server, RequestBudget budget, SimulatorOptions options, SimulatorStats stats)
    {
        _server = server;
        _budget = budget;
        Options = options;
        Stats = stats;
        Endpoint = server.Endpoint;
    }

    public SimulatorOptions Options { get; }

    /// <summary>The live counters.</summary>
    public SimulatorStats Stats { get; }

    /// <summary>Where clients reach the simulator, such as <c>http://127.0.0.1:10102/</c>.</summary>
    public Uri Endpoint { get; }

    public int Port => Endpoint.Port;

    /// <summary>The Table endpoint of an account behind the simulator, for a connection string's <c>TableEndpoint</c>.</summary>
    public Uri TableEndpoint(string account = "devstoreaccount1") => new(Endpoint, account);

    public static Task<SimulatorHost> StartAsync(SimulatorOptions options, CancellationToken cancellationToken = default) =>
        StartAsync(options, TimeProvider.System, cancellationToken);

    /// <summary>Starts listening; <paramref name="timeProvider"/> drives the buckets, the added latency and the error timestamps.</summary>
    public static async Task<SimulatorHost> StartAsync(SimulatorOptions options, TimeProvider timeProvider, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(timeProvider);
        options.Validate();

        var stats = new SimulatorStats();
        var budget = new RequestBudget(options.RuPerSecond, options.PartitionRuPerSecond, options.BurstSeconds, timeProvider);
        var upstream = LoopbackServer.CreateUpstreamClient();
        var proxy = new ProxyEndpoint(options.Upstream, upstream, budget, new FaultInjector(options), stats, options.RuPerKilobyte, options.Instant, timeProvider);
        var admin = new StatsEndpoint(StatsEndpoint.SimulatorPrefix, stats.Snapshot, () => Reset(stats, budget));
        var server = await LoopbackServer.StartAsync(options.Host, options.Port, certificate: null, upstream, async context =>
        {
            if (!await admin.TryHandleAsync(context))
            {
                await proxy.HandleAsync(context);
            }
        }, cancellationToken);

        return new SimulatorHost(server, budget, options, stats);
    }

    /// <summary>Zeroes the counters and fills the buckets, as <c>POST /_simulator/reset</c> does.</summary>
    public void Reset() => Reset(Stats, _budget);

    /// <summary>Runs until <paramref name="cancellationToken"/> fires or the process is asked to stop.</summary>
    public Task WaitForShutdownAsync(CancellationToken cancellationToken = default) => _server.WaitForShutdownAsync(cancellationToken);

    public ValueTask DisposeAsync() => _server.DisposeAsync();

    private static void Reset(SimulatorStats stats, RequestBudget budget)
    {
        stats.Reset();
        budget.Fill();
    }
}
