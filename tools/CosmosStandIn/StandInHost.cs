using System.Text.Json;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Upstream;
using Loader.ThrottlingSimulator;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// A running stand-in: Kestrel serving HTTPS on <see cref="ProxyHost.Endpoint"/> in front of cosmosdb-server. Start it from a
/// test with <see cref="StartAsync(StandInOptions, CancellationToken)"/>, or as a process through the command line.
/// </summary>
public sealed class StandInHost : ProxyHost
{
    private readonly CosmosDbServerClient _documents;

    private StandInHost(RunningServer server, Action reset, CosmosDbServerClient documents, StandInOptions options, StandInStats stats)
        : base(server, reset)
    {
        _documents = documents;
        Options = options;
        Stats = stats;
    }

    public StandInOptions Options { get; }

    /// <summary>The live counters.</summary>
    public StandInStats Stats { get; }

    /// <summary>The Cosmos DB emulator's published key: neither the stand-in nor cosmosdb-server checks keys, but clients sign with one.</summary>
    public const string EmulatorKey = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    /// <summary>A connection string for the stand-in; as no key is checked, any well-formed one does.</summary>
    public string ConnectionString(string key = EmulatorKey) => $"AccountEndpoint={Endpoint};AccountKey={key};";

    public static Task<StandInHost> StartAsync(StandInOptions options, CancellationToken cancellationToken = default) =>
        StartAsync(options, TimeProvider.System, cancellationToken);

    /// <summary>Starts listening; <paramref name="timeProvider"/> drives the budget's buckets.</summary>
    public static async Task<StandInHost> StartAsync(StandInOptions options, TimeProvider timeProvider, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(timeProvider);
        options.Validate();

        var stats = new StandInStats();
        var budget = new RequestBudget(options.RuPerSecond, options.PartitionRuPerSecond, options.BurstSeconds, timeProvider);
        var reset = ResetOf(stats, budget);
        var upstream = LoopbackServer.CreateUpstreamClient();
        var documents = new CosmosDbServerClient(upstream, options.Upstream);
        var batches = new BatchEndpoint(documents, new OperationPlanner(options.RuPerKilobyte), new TransactionalBatchExecutor(documents, new PartitionLocks()), new BulkExecutor(documents), budget, stats);
        var passThrough = new PassThroughEndpoint(new HttpForwarder(options.Upstream, upstream), stats);
        var pointReads = new PointReadEndpoint(documents, stats);
        var admin = new StatsEndpoint("/_standin", stats.Snapshot, reset);
        var server = await LoopbackServer.StartAsync(options.Host, options.Port, SelfSignedCertificate.ForLocalhost(), upstream, async context =>
        {
            if (await admin.TryHandleAsync(context))
            {
                return;
            }

            if (BatchEndpoint.IsBatch(context.Request) && ContainerPath.FromDocumentsPath(context.Request.Path.Value ?? "") is { } container)
            {
                await batches.HandleAsync(context, container);
                return;
            }

            if (QueryPlanEndpoint.IsQueryPlan(context.Request))
            {
                await QueryPlanEndpoint.HandleAsync(context);
                return;
            }

            if (PointReadEndpoint.Match(context.Request) is var (readContainer, id))
            {
                await pointReads.HandleAsync(context, readContainer, id);
                return;
            }

            if (HttpMethods.IsDelete(context.Request.Method) && context.Request.Path.Value is { } path)
            {
                // A container deleted (or its database) may come back with another partition key path.
                documents.Forget(path);
            }

            await passThrough.HandleAsync(context);
        }, cancellationToken);

        return new StandInHost(server, reset, documents, options, stats);
    }

    /// <summary>
    /// The items stored under <paramref name="keys"/> (partition key value, id), read from cosmosdb-server a hundred
    /// at a time, for checking what a load wrote: its queries and feeds walk the whole container at about a millisecond
    /// an item, where reads by key do not. Keys not found are left out. Neither charged nor counted.
    /// </summary>
    public async Task<IReadOnlyDictionary<(string PartitionKey, string Id), JsonElement>> ReadItemsAsync(
        string database, string container, IReadOnlyCollection<(string PartitionKey, string Id)> keys, CancellationToken cancellationToken = default)
    {
        var found = new Dictionary<(string, string), JsonElement>();
        foreach (var chunk in keys.Chunk(BatchEndpoint.MaxOperations))
        {
            var operations = chunk.Select(key => new UpstreamOperation("Read", JsonSerializer.Serialize(new[] { key.PartitionKey }), key.Id)).ToList();
            var results = await _documents.ExecuteAsync(new ContainerPath(database, container), operations, continueOnError: true, cancellationToken);
            for (var i = 0; i < chunk.Length; i++)
            {
                if (results[i].IsSuccess)
                {
                    using var item = JsonDocument.Parse(results[i].Body);
                    found[chunk[i]] = item.RootElement.Clone();
                }
            }
        }

        return found;
    }
}
