using System.Net;
using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.StandIn;

/// <summary>Items and containers for the stand-in's own tests, written and read through the real SDK as streams of System.Text.Json.</summary>
internal static class StandInItems
{
    /// <summary>A stream of the item's JSON, for the SDK's stream APIs.</summary>
    public static MemoryStream Stream(object item) => new(JsonSerializer.SerializeToUtf8Bytes(item));

    /// <summary>The body of a response, parsed; null when it has none.</summary>
    public static async Task<JsonObject?> BodyAsync(ResponseMessage response) =>
        response.Content is null ? null : await JsonNode.ParseAsync(response.Content) as JsonObject;

    /// <summary>An item read by id and full key; null when the stand-in answers 404.</summary>
    public static async Task<JsonObject?> ReadAsync(Container container, string id, PartitionKey key, CancellationToken cancellationToken)
    {
        using var response = await container.ReadItemStreamAsync(id, key, cancellationToken: cancellationToken);
        return response.StatusCode == HttpStatusCode.NotFound ? null : await BodyAsync(response.EnsureSuccessStatusCode());
    }

    /// <summary>Every item a query returns, across its pages.</summary>
    public static async Task<List<JsonObject>> QueryAsync(Container container, string query, QueryRequestOptions? options, CancellationToken cancellationToken)
    {
        var items = new List<JsonObject>();
        using var iterator = container.GetItemQueryStreamIterator(query, requestOptions: options);
        while (iterator.HasMoreResults)
        {
            using var page = await iterator.ReadNextAsync(cancellationToken);
            var body = await BodyAsync(page.EnsureSuccessStatusCode());
            items.AddRange(body!["Documents"]!.AsArray().OfType<JsonObject>());
        }

        return items;
    }

    /// <summary>A container of its own in the fixture's database, partitioned as <paramref name="properties"/> says.</summary>
    public static async Task<Container> CreateContainerAsync(CosmosClient client, ContainerProperties properties, CancellationToken cancellationToken)
    {
        var created = await client.GetDatabase(CosmosStandInFixture.Database).CreateContainerAsync(properties, cancellationToken: cancellationToken);
        return created.Container;
    }

    /// <summary>A hierarchical partition key of these values, as the SDK builds one.</summary>
    public static PartitionKey Key(params string[] levels)
    {
        var builder = new PartitionKeyBuilder();
        foreach (var level in levels)
        {
            builder.Add(level);
        }

        return builder.Build();
    }
}
