using System.Text.Json;
using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// The items of a batch that are stored already, with their ETags, read in one ReadMany request (before a Merge, and
/// to compare a resumed Insert's conflicts). The documents stay alive until disposed, while they are merged.
/// </summary>
internal sealed class CosmosStoredItems : IDisposable
{
    private readonly JsonDocument? _document;

    private CosmosStoredItems(JsonDocument? document, double requestCharge, BatchOutcome? failure)
    {
        _document = document;
        RequestCharge = requestCharge;
        Failure = failure;
        if (document is not null && document.RootElement.TryGetProperty("Documents", out var documents))
        {
            foreach (var item in documents.EnumerateArray())
            {
                if (item.TryGetProperty("id", out var id) && id.GetString() is { } key)
                {
                    Items[key] = (item, item.TryGetProperty("_etag", out var etag) ? etag.GetString() ?? "" : "");
                }
            }
        }
    }

    /// <summary>The stored items by id.</summary>
    public Dictionary<string, (JsonElement Body, string ETag)> Items { get; } = new(StringComparer.Ordinal);

    public double RequestCharge { get; }

    /// <summary>What the service answered when the read failed (no latency yet); null when it succeeded.</summary>
    public BatchOutcome? Failure { get; }

    public static async Task<CosmosStoredItems> ReadAsync(Container container, EntityBatch batch, PartitionKey partitionKey, CancellationToken cancellationToken)
    {
        var keys = batch.Entities.Select(entity => (entity.RowKey, partitionKey)).ToList();
        using var response = await container.ReadManyItemsStreamAsync(keys, cancellationToken: cancellationToken).ConfigureAwait(false);
        var charge = response.Headers.RequestCharge;
        if (!response.IsSuccessStatusCode)
        {
            return new CosmosStoredItems(null, charge, CosmosOutcomes.FromStoredRead(response));
        }

        var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: cancellationToken).ConfigureAwait(false);
        return new CosmosStoredItems(document, charge, null);
    }

    public void Dispose() => _document?.Dispose();
}
