using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn.Containers;

/// <summary>
/// Requests about containers (<c>…/colls</c>, <c>…/colls/{id}</c>) on their way to cosmosdb-server: a partition
/// key definition the service would refuse (more than three paths, several without <c>MultiHash</c>) is refused
/// here with 400, as cosmosdb-server takes anything; a container with a hierarchical key is created (or replaced)
/// to be stored by its whole key, and every answer gives the client its definition as created
/// (<see cref="FullKeyStorage"/>). What the stand-in knows of a container is forgotten when it is replaced or deleted.
/// </summary>
internal sealed class ContainerEndpoint(CosmosDbServerClient upstream, PassThroughEndpoint passThrough)
{
    public async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        if (HttpMethods.IsDelete(request.Method) || HttpMethods.IsPut(request.Method))
        {
            // A container deleted (or replaced) may come back with another partition key definition.
            upstream.Forget(request.Path.Value ?? "");
        }

        HttpContent? content = null;
        if ((HttpMethods.IsPost(request.Method) && !RequestRoute.IsQuery(request)) || HttpMethods.IsPut(request.Method))
        {
            using var body = new MemoryStream();
            await request.Body.CopyToAsync(body, context.RequestAborted);
            var container = body.Length > 0 ? JsonNode.Parse(body.ToArray()) as JsonObject : null;
            if (container?["partitionKey"] is JsonObject definition
                && PartitionKeyDefinition.FromJson(JsonSerializer.SerializeToElement(definition)).Problem() is { } problem)
            {
                await ServiceErrorAnswer.WriteAsync(context, 400, "BadRequest", problem);
                return;
            }

            content = new ByteArrayContent(container is not null && FullKeyStorage.ContainerForUpstream(container) is { } stored ? stored : body.ToArray());
        }

        await passThrough.HandleAsync(context, content, static (_, body) => FullKeyStorage.ContainersForClient(body));
    }
}
