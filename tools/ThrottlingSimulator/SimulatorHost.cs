namespace Loader.ThrottlingSimulator;

/// <summary>
/// A running simulator: Kestrel on <see cref="ProxyHost.Endpoint"/> in front of the upstream service. Start it from a
/// test with <see cref="StartAsync(SimulatorOptions, CancellationToken)"/>, or as a process through the command line.
/// </summary>
public sealed class SimulatorHost : ProxyHost
{
    private SimulatorHost(RunningServer server, Action reset, SimulatorOptions options, SimulatorStats stats)
        : base(server, reset)
    {
        Options = options;
        Stats = stats;
    }

    public SimulatorOptions Options { get; }

    /// <summary>The live counters.</summary>
    public SimulatorStats Stats { get; }

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
        var reset = ResetOf(stats, budget);
        var upstream = LoopbackServer.CreateUpstreamClient();
        var proxy = new ProxyEndpoint(options.Upstream, upstream, budget, new FaultInjector(options), stats, options.RuPerKilobyte, options.Instant, timeProvider);
        var admin = new StatsEndpoint(StatsEndpoint.SimulatorPrefix, stats.Snapshot, reset);
        var server = await LoopbackServer.StartAsync(options.Host, options.Port, certificate: null, upstream, async context =>
        {
            if (!await admin.TryHandleAsync(context))
            {
                await proxy.HandleAsync(context);
            }
        }, cancellationToken);

        return new SimulatorHost(server, reset, options, stats);
    }
}
