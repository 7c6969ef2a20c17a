using System.Collections.Concurrent;
using System.Net;
using System.Text.Json;
using Loader.CosmosStandIn.Containers;
using Loader.CosmosStandIn.Partitioning;

namespace Loader.CosmosStandIn.Upstream;

/// <summary>
/// Applies operations to cosmosdb-server through its JSON batch API (the JavaScript SDK's format, which it
/// understands): one request for many operations, run by its single JavaScript thread one after the other
/// with no other request in between. Items of a container stored by their whole key (<see cref="FullKeyStorage"/>)
/// go there with it and come back without it. It checks no credentials, so none are sent.
/// </summary>
public sealed class CosmosDbServerClient(HttpClient client, Uri upstream) : IContainerCatalog
{
    private readonly ConcurrentDictionary<ContainerPath, UpstreamContainer> _containers = new();

    /// <summary>
    /// Runs <paramref name="operations"/> in order. With <paramref name="continueOnError"/> false, the first failure
    /// stops the rest (they come back 424) but does not undo what ran before it: cosmosdb-server has no transactions.
    /// </summary>
    public async Task<IReadOnlyList<UpstreamResult>> ExecuteAsync(ContainerPath container, IReadOnlyList<UpstreamOperation> operations, bool continueOnError, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(operations);
        var byFullKey = (await ContainerAsync(container, cancellationToken).ConfigureAwait(false))?.ByFullKey ?? false;
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(upstream, container.Link + "/docs"));
        request.Headers.Add("x-ms-cosmos-is-batch-request", "True");
        request.Headers.Add("x-ms-cosmos-batch-continue-on-error", continueOnError ? "True" : "False");
        request.Content = new ByteArrayContent(Json(operations, byFullKey));
        request.Content.Headers.ContentType = new("application/json");
        using var response = await client.SendAsync(request, cancellationToken).ConfigureAwait(false);
        var body = await response.Content.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false);
        if (!response.IsSuccessStatusCode)
        {
            throw new HttpRequestException($"cosmosdb-server refused a batch of {operations.Count} operations ({(int)response.StatusCode}): {System.Text.Encoding.UTF8.GetString(body)}", null, response.StatusCode);
        }

        using var document = JsonDocument.Parse(body);
        var results = new List<UpstreamResult>(operations.Count);
        foreach (var result in document.RootElement.EnumerateArray())
        {
            ReadOnlyMemory<byte> item = result.TryGetProperty("resourceBody", out var resource) && resource.ValueKind == JsonValueKind.Object
                ? JsonSerializer.SerializeToUtf8Bytes(resource)
                : ReadOnlyMemory<byte>.Empty;
            results.Add(new UpstreamResult(
                result.GetProperty("statusCode").GetInt32(),
                result.TryGetProperty("eTag", out var etag) && etag.ValueKind == JsonValueKind.String ? etag.GetString() : null,
                byFullKey && !item.IsEmpty ? FullKeyStorage.WithoutKey(item) : item));
        }

        return results.Count == operations.Count
            ? results
            : throw new HttpRequestException($"cosmosdb-server answered {results.Count} results to {operations.Count} operations.");
    }

    /// <summary>The container's partition key definition and storage, read once; null when the container does not exist.</summary>
    public async Task<UpstreamContainer?> ContainerAsync(ContainerPath container, CancellationToken cancellationToken)
    {
        if (_containers.TryGetValue(container, out var known))
        {
            return known;
        }

        using var response = await client.GetAsync(new Uri(upstream, container.Link), cancellationToken).ConfigureAwait(false);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }

        response.EnsureSuccessStatusCode();
        using var document = JsonDocument.Parse(await response.Content.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false));
        var root = document.RootElement;
        var byFullKey = root.TryGetProperty(FullKeyStorage.DefinitionProperty, out var asCreated);
        var definition = PartitionKeyDefinition.FromJson(byFullKey ? asCreated : root.TryGetProperty("partitionKey", out var stored) ? stored : default);
        if (definition.Paths.Count == 0)
        {
            throw new InvalidDataException($"container {container.Link} has no partition key path.");
        }

        return _containers.GetOrAdd(container, new UpstreamContainer(definition, byFullKey));
    }

    public async Task<PartitionKeyDefinition?> DefinitionAsync(ContainerPath container, CancellationToken cancellationToken) =>
        (await ContainerAsync(container, cancellationToken).ConfigureAwait(false))?.Definition;

    /// <summary>Forgets what is known of the containers under a path being deleted or replaced (a container or a whole database).</summary>
    public void Forget(string changedPath)
    {
        ArgumentNullException.ThrowIfNull(changedPath);
        foreach (var container in _containers.Keys)
        {
            if (container.Link.StartsWith(changedPath.TrimEnd('/'), StringComparison.Ordinal))
            {
                _containers.TryRemove(container, out _);
            }
        }
    }

    private static byte[] Json(IReadOnlyList<UpstreamOperation> operations, bool byFullKey)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartArray();
            foreach (var operation in operations)
            {
                writer.WriteStartObject();
                writer.WriteString("operationType", operation.Type);
                writer.WriteString("partitionKey", byFullKey ? FullKeyStorage.UpstreamKey(operation.Key) : operation.Key.Json);
                writer.WriteString("id", operation.Id);
                if (!operation.Body.IsEmpty)
                {
                    writer.WritePropertyName("resourceBody");
                    writer.WriteRawValue((byFullKey ? FullKeyStorage.WithKey(operation.Body, operation.Key) : operation.Body).Span, skipInputValidation: false);
                }

                if (operation.IfMatch is not null)
                {
                    writer.WriteString("ifMatch", operation.IfMatch);
                }

                writer.WriteEndObject();
            }

            writer.WriteEndArray();
        }

        return buffer.ToArray();
    }
}
