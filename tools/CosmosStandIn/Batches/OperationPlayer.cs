using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>What an operation comes to when played against the stored items: its refusal, or the write (or read) to send and what it costs.</summary>
/// <param name="Refusal">The service's answer when it fails; null when it passes.</param>
/// <param name="Upstream">What to send to cosmosdb-server for it (a patch: the replace of the patched item).</param>
/// <param name="Cost">Request units it costs: for a patch, the write price of the patched item.</param>
/// <param name="Ttl">The <c>ttl</c> of the item it writes, as JSON text; null when none.</param>
public sealed record PlayedOperation(BatchOperationResult? Refusal, UpstreamOperation? Upstream, double Cost, string? Ttl);

/// <summary>
/// Plays operations in order against the stored state of the items they touch, as the service runs them on a
/// partition's primary: a create over an existing id is 409; a replace, read, delete or patch of a missing one 404;
/// an If-Match on another ETag 412; a patch is applied to the item as it stands (<see cref="PatchApplier"/>), and
/// later operations see what earlier ones did. Nothing is written here: the callers send what passed.
/// </summary>
public sealed class OperationPlayer(OperationPlanner planner)
{
    /// <param name="operations">The planned operations, in request order.</param>
    /// <param name="stored">What cosmosdb-server holds for each (partition key, id) they touch.</param>
    /// <param name="atomic">Stop at the first failure (a transactional batch); otherwise each stands alone and a failed one changes nothing.</param>
    /// <returns>One entry per operation; after an atomic failure the rest are null (not played).</returns>
    public IReadOnlyList<PlayedOperation?> Play(IReadOnlyList<PlannedOperation> operations, IReadOnlyDictionary<(string PartitionKey, string Id), UpstreamResult> stored, bool atomic)
    {
        ArgumentNullException.ThrowIfNull(operations);
        ArgumentNullException.ThrowIfNull(stored);

        // What each item would be after the operations so far: null when it would not exist. An item written in
        // this batch gets an ETag no client can know yet.
        var state = stored.ToDictionary(pair => pair.Key, pair => pair.Value.IsSuccess ? new ItemState(pair.Value.ETag ?? "", pair.Value.Body) : null);
        var played = new PlayedOperation?[operations.Count];
        for (var i = 0; i < operations.Count; i++)
        {
            var operation = operations[i];
            var result = operation.Refusal is { } refusal ? new PlayedOperation(refusal, null, operation.Cost, null) : PlayOne(operation, i, state);
            played[i] = result;
            if (atomic && result.Refusal is not null)
            {
                break;
            }
        }

        return played;
    }

    private PlayedOperation PlayOne(PlannedOperation operation, int index, Dictionary<(string, string), ItemState?> state)
    {
        var slot = (operation.PartitionKey, operation.Id);
        var current = state.GetValueOrDefault(slot);
        var exists = current is not null;
        var type = operation.Operation.Type;
        var ifMatch = operation.Operation.IfMatch;
        var ifNoneMatch = operation.Operation.IfNoneMatch;
        BatchOperationResult? refusal = type switch
        {
            BatchOperationType.Create when exists => ServiceAnswers.Conflict(),
            BatchOperationType.Replace or BatchOperationType.Read or BatchOperationType.Delete or BatchOperationType.Patch when !exists => ServiceAnswers.NotFound(),
            _ when exists && ifMatch is not null && ifMatch != current!.ETag => ServiceAnswers.PreconditionFailed(),
            _ when !exists && ifMatch is not null && type == BatchOperationType.Upsert => ServiceAnswers.PreconditionFailed(),
            _ when exists && ifNoneMatch is not null && (ifNoneMatch == "*" || ifNoneMatch == current!.ETag) && operation.Writes => ServiceAnswers.PreconditionFailed(),
            _ => null,
        };
        if (refusal is not null)
        {
            return new PlayedOperation(refusal, null, operation.Cost, null);
        }

        var upstream = operation.ToUpstream();
        var cost = operation.Cost;
        var ttl = operation.Ttl;
        if (operation.Patch is { } patch)
        {
            ReadOnlyMemory<byte> patched;
            try
            {
                var item = JsonNode.Parse(current!.Body.Span) as JsonObject ?? throw new FormatException("the stored item is not a JSON object.");

                // The item as its client would replace it: the service's own properties are not the client's to write,
                // and leaving them out prices the patch as that replace.
                foreach (var system in OperationPlanner.SystemProperties.Where(name => name != "id"))
                {
                    item.Remove(system);
                }

                var result = PatchApplier.Apply(item, patch);
                ttl = result.TryGetPropertyValue("ttl", out var value) && value is not null ? value.ToJsonString() : null;
                patched = JsonSerializer.SerializeToUtf8Bytes(result);
            }
            catch (FormatException exception)
            {
                return new PlayedOperation(ServiceAnswers.BadRequest(exception.Message), null, operation.Cost, null);
            }

            if (patched.Length > OperationPlanner.MaxItemBytes)
            {
                return new PlayedOperation(ServiceAnswers.TooLarge(), null, operation.Cost, null);
            }

            // Patch costs as the write of the item it leaves; the service bills a partial update as any other write.
            cost = planner.WriteCost(patched.Length);
            upstream = upstream with { Type = nameof(BatchOperationType.Replace), Body = patched, IfMatch = null };
        }

        state[slot] = type switch
        {
            BatchOperationType.Delete => null,
            BatchOperationType.Read => current,
            _ => new ItemState("written in this batch " + index.ToString(CultureInfo.InvariantCulture), upstream.Body),
        };
        return new PlayedOperation(null, upstream, cost, ttl);
    }

    private sealed record ItemState(string ETag, ReadOnlyMemory<byte> Body);
}
