using System.Text.Json;
using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Wire;
using Loader.ThrottlingSimulator;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Checks what the service checks before touching any item — a write's body is a JSON object with an id, its value
/// at every partition key path is the partition key the request names, it is not over the item size limit; a
/// patch is at most 10 operations that leave the id, the partition key and the system properties alone — and
/// prices each operation with the throttling simulator's cost model: writes by the started kilobytes of their item,
/// reads a kilobyte's worth at <see cref="ReadRuPerKilobyte"/>.
/// </summary>
public sealed class OperationPlanner(double ruPerKilobyte)
{
    /// <summary>Cosmos DB's largest item: 2 MB.</summary>
    public const int MaxItemBytes = 2 * 1024 * 1024;

    /// <summary>A point read costs about one request unit per kilobyte.</summary>
    public const double ReadRuPerKilobyte = 1;

    /// <summary>The properties the service keeps itself; a patch may not touch them.</summary>
    public static readonly IReadOnlySet<string> SystemProperties = new HashSet<string>(StringComparer.Ordinal) { "id", "_rid", "_self", "_etag", "_ts", "_attachments" };

    private static readonly char[] s_forbiddenIdCharacters = ['/', '\\', '?', '#'];

    public double RuPerKilobyte => ruPerKilobyte;

    /// <summary>What a write of an item of <paramref name="bytes"/> costs.</summary>
    public double WriteCost(int bytes) => RequestCostModel.OperationCharge(bytes, ruPerKilobyte);

    /// <param name="operation">The decoded operation.</param>
    /// <param name="partitionKeyJson">The partition key it belongs to: the request's (transactional batch) or its own (bulk).</param>
    /// <param name="definition">The container's partition key definition.</param>
    public PlannedOperation Plan(BatchOperation operation, string? partitionKeyJson, PartitionKeyDefinition definition)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(definition);
        var key = PartitionKeyValue.TryParse(partitionKeyJson);
        if (key is null)
        {
            return Refuse(operation, operation.Id ?? "", null, ServiceAnswers.BadRequest(partitionKeyJson is null
                ? "The partition key of the operation is missing: neither the request nor the operation names one."
                : $"The partition key {partitionKeyJson} is not a JSON array of values."));
        }

        if (!key.IsComplete(definition))
        {
            return Refuse(operation, operation.Id ?? "", key, ServiceAnswers.BadRequest(
                $"The partition key {key.Json} has {key.Components.Count} component(s), but the container's partition key {definition} has {definition.Paths.Count} path(s).",
                ServiceAnswers.PartitionKeyMismatchSubstatus));
        }

        return operation.Type switch
        {
            BatchOperationType.Read or BatchOperationType.Delete => PlanByIdentity(operation, key),
            BatchOperationType.Patch => PlanPatch(operation, key, definition),
            _ => PlanWrite(operation, key, definition),
        };
    }

    private PlannedOperation PlanByIdentity(BatchOperation operation, PartitionKeyValue key) =>
        string.IsNullOrEmpty(operation.Id)
            ? Refuse(operation, "", key, ServiceAnswers.BadRequest("The id of the item is missing."))
            : new PlannedOperation(operation, operation.Id, key,
                operation.Type == BatchOperationType.Read ? RequestCostModel.OperationCharge(0, ReadRuPerKilobyte) : WriteCost(0), null);

    private PlannedOperation PlanPatch(BatchOperation operation, PartitionKeyValue key, PartitionKeyDefinition definition)
    {
        if (string.IsNullOrEmpty(operation.Id))
        {
            return Refuse(operation, "", key, ServiceAnswers.BadRequest("The id of the item to patch is missing."));
        }

        PatchSpec spec;
        try
        {
            spec = PatchSpec.Parse(operation.Body);
        }
        catch (FormatException exception)
        {
            return Refuse(operation, operation.Id, key, ServiceAnswers.BadRequest(exception.Message));
        }

        if (spec.Condition is not null)
        {
            return Refuse(operation, operation.Id, key, ServiceAnswers.BadRequest("The stand-in does not evaluate a conditional patch's filter predicate."));
        }

        foreach (var patch in spec.Operations)
        {
            foreach (var segments in patch.From is null ? [patch.Segments] : new[] { patch.Segments, patch.From })
            {
                if (segments.Count == 1 && SystemProperties.Contains(segments[0]))
                {
                    return Refuse(operation, operation.Id, key, ServiceAnswers.BadRequest($"Can't patch system property {segments[0]}."));
                }

                if (definition.Paths.FirstOrDefault(path => path.Overlaps(segments)) is { } keyPath)
                {
                    return Refuse(operation, operation.Id, key, ServiceAnswers.BadRequest(
                        $"The patch path {patch.Path} would change the partition key path {keyPath.Text}; a partition key cannot be patched."));
                }
            }
        }

        // Let in at the write price of its own size; charged, once applied, what the patched item costs.
        return new PlannedOperation(operation, operation.Id, key, WriteCost(operation.Body.Length), null) { Patch = spec };
    }

    private PlannedOperation PlanWrite(BatchOperation operation, PartitionKeyValue key, PartitionKeyDefinition definition)
    {
        var cost = WriteCost(operation.Body.Length);
        if (operation.Body.Length > MaxItemBytes)
        {
            return Refuse(operation, operation.Id ?? "", key, ServiceAnswers.TooLarge());
        }

        JsonDocument item;
        try
        {
            item = JsonDocument.Parse(operation.Body);
        }
        catch (JsonException exception)
        {
            return Refuse(operation, operation.Id ?? "", key, ServiceAnswers.BadRequest("The item is not valid JSON: " + exception.Message));
        }

        using (item)
        {
            var root = item.RootElement;
            if (root.ValueKind != JsonValueKind.Object
                || !root.TryGetProperty("id", out var idElement) || idElement.ValueKind != JsonValueKind.String
                || idElement.GetString() is not { Length: > 0 } id)
            {
                return Refuse(operation, operation.Id ?? "", key, ServiceAnswers.BadRequest("The input content is invalid because the required properties - 'id; ' - are missing."));
            }

            if (id.IndexOfAny(s_forbiddenIdCharacters) >= 0)
            {
                return Refuse(operation, id, key, ServiceAnswers.BadRequest("The input name '" + id + "' is invalid. Ensure to provide a unique non-empty string less than '255' characters."));
            }

            if (operation.Type == BatchOperationType.Replace && operation.Id is { } target && target != id)
            {
                return Refuse(operation, id, key, ServiceAnswers.BadRequest("The id in the item does not match the id the replace names."));
            }

            if (!key.Matches(root, definition))
            {
                return Refuse(operation, id, key, ServiceAnswers.BadRequest(ServiceAnswers.PartitionKeyMismatchMessage, ServiceAnswers.PartitionKeyMismatchSubstatus));
            }

            var ttl = root.TryGetProperty("ttl", out var ttlElement) ? ttlElement.GetRawText() : null;
            return new PlannedOperation(operation, id, key, cost, null) { Ttl = ttl };
        }
    }

    private static PlannedOperation Refuse(BatchOperation operation, string id, PartitionKeyValue? key, BatchOperationResult refusal) =>
        new(operation, id, key, 0, refusal);
}
