using System.Buffers.Binary;
using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.CosmosStandIn.Containers;
using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;

namespace Loader.CosmosStandIn.Instant;

/// <summary>
/// The databases and containers of the instant mode, kept in memory as they were created: a container's resource
/// is the client's own (its partition key definition, default TTL and the rest as sent) with the system properties
/// the service adds. Resource ids follow cosmosdb-server's scheme (a database's 4 bytes, a container's 8), since
/// the SDK reads partition key ranges by them.
/// </summary>
public sealed class InstantCatalog(TimeProvider timeProvider) : IContainerCatalog
{
    private readonly Lock _lock = new();
    private readonly List<Database> _databases = [];

    /// <summary>The answer to creating a database: 201 with its resource, or 409.</summary>
    public (int Status, JsonObject? Resource) CreateDatabase(JsonObject body)
    {
        ArgumentNullException.ThrowIfNull(body);
        var id = body["id"]?.GetValue<string>();
        lock (_lock)
        {
            if (id is null || Find(id) is not null)
            {
                return (id is null ? 400 : 409, null);
            }

            var rid = Rid(Id(((uint)(_databases.Count + 1) << 8) | 0x80000000));
            var resource = Stamp((JsonObject)body.DeepClone(), rid, $"dbs/{rid}/");
            resource["_colls"] = "colls/";
            resource["_users"] = "users/";
            _databases.Add(new Database(id, rid, resource));
            return (201, resource);
        }
    }

    public JsonObject? ReadDatabase(string idOrRid)
    {
        lock (_lock)
        {
            return Find(idOrRid)?.Resource;
        }
    }

    public IReadOnlyList<JsonObject> Databases()
    {
        lock (_lock)
        {
            return _databases.Select(database => database.Resource).ToList();
        }
    }

    public bool DeleteDatabase(string idOrRid)
    {
        lock (_lock)
        {
            return Find(idOrRid) is { } database && _databases.Remove(database);
        }
    }

    /// <summary>The answer to creating a container: 201 with its resource, 409, 404 (no database), or 400 with the reason.</summary>
    public (int Status, JsonObject? Resource, string? Problem) CreateContainer(string database, JsonObject body)
    {
        ArgumentNullException.ThrowIfNull(body);
        var id = body["id"]?.GetValue<string>();
        var definition = PartitionKeyDefinition.FromJson(JsonSerializer.SerializeToElement(body["partitionKey"]));
        if (id is null || definition.Problem() is { } problem)
        {
            return (400, null, id is null ? "The container needs an id." : definition.Problem());
        }

        lock (_lock)
        {
            if (Find(database) is not { } owner)
            {
                return (404, null, null);
            }

            if (owner.Containers.Any(container => container.Id == id))
            {
                return (409, null, null);
            }

            var number = (uint)(owner.Containers.Count + 1) | 0x80000000;
            var rid = Rid([.. Convert.FromBase64String(owner.Rid), .. Id(number)]);
            var resource = Stamp((JsonObject)body.DeepClone(), rid, $"dbs/{owner.Rid}/colls/{rid}/");
            resource["indexingPolicy"] ??= JsonNode.Parse("""{"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/\"_etag\"/?"}]}""");
            foreach (var feed in new[] { "docs", "sprocs", "triggers", "udfs", "conflicts" })
            {
                resource["_" + feed] = feed + "/";
            }

            owner.Containers.Add(new Container(id, rid, resource, definition));
            return (201, resource, null);
        }
    }

    public JsonObject? ReadContainer(string database, string idOrRid)
    {
        lock (_lock)
        {
            return FindContainer(database, idOrRid)?.Resource;
        }
    }

    public IReadOnlyList<JsonObject>? Containers(string database)
    {
        lock (_lock)
        {
            return Find(database)?.Containers.Select(container => container.Resource).ToList();
        }
    }

    public bool DeleteContainer(string database, string idOrRid)
    {
        lock (_lock)
        {
            return Find(database) is { } owner && FindContainer(database, idOrRid) is { } container && owner.Containers.Remove(container);
        }
    }

    public Task<PartitionKeyDefinition?> DefinitionAsync(ContainerPath container, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
        lock (_lock)
        {
            return Task.FromResult(FindContainer(container.Database, container.Container)?.Definition);
        }
    }

    private Database? Find(string idOrRid) => _databases.FirstOrDefault(database => database.Id == idOrRid || database.Rid == idOrRid);

    private Container? FindContainer(string database, string idOrRid) =>
        Find(database)?.Containers.FirstOrDefault(container => container.Id == idOrRid || container.Rid == idOrRid);

    private JsonObject Stamp(JsonObject resource, string rid, string self)
    {
        resource["_rid"] = rid;
        resource["_self"] = self;
        resource["_etag"] = $"\"{Guid.NewGuid()}\"";
        resource["_ts"] = timeProvider.GetUtcNow().ToUnixTimeSeconds();
        return resource;
    }

    private static byte[] Id(uint value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(bytes, value);
        return bytes;
    }

    private static string Rid(byte[] bytes) => Convert.ToBase64String(bytes);

    private sealed record Database(string Id, string Rid, JsonObject Resource)
    {
        public List<Container> Containers { get; } = [];
    }

    private sealed record Container(string Id, string Rid, JsonObject Resource, PartitionKeyDefinition Definition);
}
