using System.Text.Json;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Containers;
using Loader.CosmosStandIn.Instant;
using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;
using Loader.ThrottlingSimulator;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// A running stand-in: Kestrel serving HTTPS on <see cref="ProxyHost.Endpoint"/> in front of cosmosdb-server, or in
/// front of nothing in instant mode. Start it from a test with <see cref="StartAsync(StandInOptions, CancellationToken)"/>,
/// or as a process through the command line.
/// </summary>
public sealed class StandInHost : ProxyHost
{
    /// <summary>The header the SDK names a request's priority in (<c>High</c>, <c>Low</c>).</summary>
    public const string PriorityLevelHeader = "x-ms-cosmos-priority-level";

    private readonly CosmosDbServerClient? _documents;

    private StandInHost(RunningServer server, Action reset, CosmosDbServerClient? documents, StandInOptions options, StandInStats stats)
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
        var budget = new RequestBudget(options.RuPerSecond, options.PartitionRuPerSecond, options.BurstSeconds, timeProvider, options.BucketRuPerSecond);
        var reset = ResetOf(stats, budget);
        var sessions = new SessionTokens();
        var planner = new OperationPlanner(options.RuPerKilobyte);
        var upstream = LoopbackServer.CreateUpstreamClient();
        var documents = options.Instant ? null : new CosmosDbServerClient(upstream, options.Upstream);
        var handler = documents is null
            ? InstantHandler(new InstantCatalog(timeProvider), planner, budget, stats, sessions)
            : UpstreamHandler(documents, new HttpForwarder(options.Upstream, upstream), planner, budget, stats, sessions);
        var admin = new StatsEndpoint("/_standin", stats.Snapshot, reset);
        var server = await LoopbackServer.StartAsync(options.Host, options.Port, SelfSignedCertificate.ForLocalhost(), upstream, async context =>
        {
            if (await admin.TryHandleAsync(context))
            {
                return;
            }

            var route = RequestRoute.Of(context.Request);
            stats.RecordRequest(route.Kind, Header(context.Request, PriorityLevelHeader), ThroughputBuckets.Of(context.Request));
            await handler(context, route);
        }, cancellationToken);

        return new StandInHost(server, reset, documents, options, stats);
    }

    private static Func<HttpContext, RequestRoute, Task> UpstreamHandler(
        CosmosDbServerClient documents, HttpForwarder forwarder, OperationPlanner planner, RequestBudget budget, StandInStats stats, SessionTokens sessions)
    {
        var player = new OperationPlayer(planner);
        var locks = new PartitionLocks();
        var executor = new UpstreamBatchExecutor(documents, new TransactionalBatchExecutor(documents, locks, player), new BulkExecutor(documents, locks, player));
        var passThrough = new PassThroughEndpoint(forwarder, stats);
        var queries = new ItemQueryEndpoint(documents, passThrough);
        var containers = new ContainerEndpoint(documents, passThrough);
        return ItemHandler(documents, planner, executor, budget, stats, sessions, (context, route) => route.Target switch
        {
            RouteTarget.ItemQuery => queries.HandleAsync(context, route.Container!),
            RouteTarget.Containers => containers.HandleAsync(context),
            _ => OtherAsync(context),
        });

        Task OtherAsync(HttpContext context)
        {
            if (HttpMethods.IsDelete(context.Request.Method))
            {
                // A database deleted may come back with containers of other partition key definitions.
                documents.Forget(context.Request.Path.Value ?? "");
            }

            return passThrough.HandleAsync(context);
        }
    }

    private static Func<HttpContext, RequestRoute, Task> InstantHandler(
        InstantCatalog catalog, OperationPlanner planner, RequestBudget budget, StandInStats stats, SessionTokens sessions)
    {
        var metadata = new InstantMetadataEndpoint(catalog, stats);
        return ItemHandler(catalog, planner, new InstantBatchExecutor(), budget, stats, sessions, (context, _) => metadata.HandleAsync(context));
    }

    /// <summary>What both modes answer alike: batches, query plans, point reads and writes; <paramref name="rest"/> the others.</summary>
    private static Func<HttpContext, RequestRoute, Task> ItemHandler(
        IContainerCatalog catalog, OperationPlanner planner, IBatchExecutor executor, RequestBudget budget, StandInStats stats, SessionTokens sessions,
        Func<HttpContext, RequestRoute, Task> rest)
    {
        var batches = new BatchEndpoint(catalog, planner, executor, budget, stats, sessions);
        var pointReads = new PointReadEndpoint(catalog, executor, stats, sessions);
        var pointWrites = new PointWriteEndpoint(catalog, planner, executor, budget, stats, sessions);
        return (context, route) => route.Target switch
        {
            RouteTarget.Batch => batches.HandleAsync(context, route.Container!),
            RouteTarget.QueryPlan => QueryPlanEndpoint.HandleAsync(context),
            RouteTarget.PointRead => pointReads.HandleAsync(context, route.Container!, route.ItemId!),
            RouteTarget.PointWrite => pointWrites.HandleAsync(context, route.Container!, route.ItemId),
            _ => rest(context, route),
        };
    }

    private static string? Header(HttpRequest request, string name) =>
        request.Headers[name].ToString() is { Length: > 0 } value ? value : null;

    /// <summary>
    /// The items stored under <paramref name="keys"/> (partition key value, id), read from cosmosdb-server a hundred
    /// at a time, for checking what a load wrote: its queries and feeds walk the whole container at about a millisecond
    /// an item, where reads by key do not. Keys not found are left out. Neither charged nor counted; not in instant mode,
    /// which keeps no items.
    /// </summary>
    public async Task<IReadOnlyDictionary<(string PartitionKey, string Id), JsonElement>> ReadItemsAsync(
        string database, string container, IReadOnlyCollection<(string PartitionKey, string Id)> keys, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(keys);
        var documents = _documents ?? throw new InvalidOperationException("The stand-in in instant mode keeps no items.");
        var found = new Dictionary<(string, string), JsonElement>();
        foreach (var chunk in keys.Chunk(BatchEndpoint.MaxOperations))
        {
            var operations = chunk.Select(key => new UpstreamOperation("Read", PartitionKeyValue.Of(key.PartitionKey), key.Id)).ToList();
            var results = await documents.ExecuteAsync(new ContainerPath(database, container), operations, continueOnError: true, cancellationToken);
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
