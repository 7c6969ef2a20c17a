using System.Globalization;
using Loader.CosmosStandIn;
using Loader.ThrottlingSimulator;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Benchmarks;

/// <summary>
/// A fresh cosmosdb-server behind the Cosmos DB stand-in, which runs in this process: Cosmos DB for NoSQL in
/// Gateway mode, reached by the loader through the real SDK, charging request units and answering 429 over its budget.
/// </summary>
internal sealed class CosmosThrottledService : IThrottledService
{
    private const string Database = "bench";

    private readonly CosmosDbServerProcess _server;
    private readonly StandInHost _standIn;
    private readonly string _mode;

    private CosmosThrottledService(CosmosDbServerProcess server, StandInHost standIn, string mode)
    {
        _server = server;
        _standIn = standIn;
        _mode = mode;
    }

    public string Description => $"cosmosdb-server behind the Cosmos DB stand-in (Cosmos DB for NoSQL, Gateway mode, {_mode})";

    public IReadOnlyList<string> LoaderArguments => Benchmarks.LoaderArguments.Cosmos(_standIn, Database, _mode);

    public int? StorePid => ProcFs.FindByArgument("--port", _server.Endpoint.Port.ToString(CultureInfo.InvariantCulture));

    /// <summary>
    /// The stand-in's counters as the simulator's: a transactional batch is one request, throttled whole or not at
    /// all, so its requests and 429s compare one to one with the loader's report.
    /// </summary>
    public SimulatorStatsSnapshot Counted()
    {
        var counted = _standIn.Stats.Snapshot();
        return new SimulatorStatsSnapshot(
            Requests: counted.BatchRequests,
            Forwarded: counted.BatchRequests - counted.ThrottledRequests,
            Throttled: counted.ThrottledRequests,
            Faults503: 0,
            Faults500: 0,
            Dropped: 0,
            Held: 0,
            Abandoned: 0,
            UpstreamFailures: 0,
            RequestChargeTotal: counted.RequestChargeTotal,
            OperationsForwarded: counted.Operations - counted.ThrottledOperations);
    }

    /// <summary>Items created through the stand-in: nothing else writes to this fresh cosmosdb-server (whose own count would take minutes).</summary>
    public Task<long?> CountStoredAsync(CancellationToken cancellationToken)
    {
        var created = _standIn.Stats.Snapshot().ItemsCreated;
        return Task.FromResult<long?>(created > 0 ? created : null);
    }

    public static async Task<CosmosThrottledService> StartAsync(BenchSettings settings, string mode, CancellationToken cancellationToken)
    {
        var server = await CosmosDbServerProcess.StartAsync(cancellationToken);
        try
        {
            // One second of burst, as Cosmos DB allows; the simulator's cost model, so both runs pay the same per row.
            var standIn = await StandInHost.StartAsync(
                new StandInOptions { Upstream = server.Endpoint, RuPerSecond = settings.Budget, BurstSeconds = 1, RuPerKilobyte = settings.RuPerKilobyte },
                cancellationToken);
            return new CosmosThrottledService(server, standIn, mode);
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _standIn.DisposeAsync();
        await _server.DisposeAsync();
    }
}
