using System.Text.Json;
using Loader.CosmosStandIn.Wire;
using Loader.ThrottlingSimulator;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Checks what the service checks before touching any item — a write's body is a JSON object with an id, its
/// partition key is the one the request names, it is not over the item size limit — and prices each operation
/// with the throttling simulator's cost model: writes by the started kilobytes of their item, reads a kilobyte's
/// worth at <see cref="ReadRuPerKilobyte"/>.
/// </summary>
public sealed class OperationPlanner(double ruPerKilobyte)
{
    /// <summary>Cosmos DB's largest item: 2 MB.</summary>
    public const int MaxItemBytes = 2 * 1024 * 1024;

    /// <summary>A point read costs about one request unit per kilobyte.</summary>
    public const double ReadRuPerKilobyte = 1;

    private static readonly char[] s_forbiddenIdCharacters = ['/', '\\', '?', '#'];

    /// <param name="operation">The decoded operation.</param>
    /// <param name="partitionKeyJson">The partition key it belongs to: the request's (transactional batch) or its own (bulk).</param>
    /// <param name="partitionKeyPath">The container's partition key path, e.g. <c>/pk</c>.</param>
    public PlannedOperation Plan(BatchOperation operation, string? partitionKeyJson, string partitionKeyPath)
    {
        ArgumentNullException.ThrowIfNull(operation);
        if (partitionKeyJson is null)
        {
            return Refuse(operation, "", "", ServiceAnswers.BadRequest("The partition key of the operation is missing: neither the request nor the operation names one."));
        }

        if (operation.Type == BatchOperationType.Patch)
        {
            return Refuse(operation, operation.Id ?? "", partitionKeyJson, ServiceAnswers.BadRequest("Patch is not supported by the stand-in."));
        }

        if (operation.Type is BatchOperationType.Read or BatchOperationType.Delete)
        {
            return string.IsNullOrEmpty(operation.Id)
                ? Refuse(operation, "", partitionKeyJson, ServiceAnswers.BadRequest("The id of the item is missing."))
                : new PlannedOperation(operation, operation.Id, partitionKeyJson,
                    operation.Type == BatchOperationType.Read ? RequestCostModel.OperationCharge(0, ReadRuPerKilobyte) : RequestCostModel.OperationCharge(0, ruPerKilobyte), null);
        }

        var cost = RequestCostModel.OperationCharge(operation.Body.Length, ruPerKilobyte);
        if (operation.Body.Length > MaxItemBytes)
        {
            return Refuse(operation, operation.Id ?? "", partitionKeyJson, ServiceAnswers.TooLarge());
        }

        JsonDocument item;
        try
        {
            item = JsonDocument.Parse(operation.Body);
        }
        catch (JsonException exception)
        {
            return Refuse(operation, operation.Id ?? "", partitionKeyJson, ServiceAnswers.BadRequest("The item is not valid JSON: " + exception.Message));
        }

        using (item)
        {
            if (item.RootElement.ValueKind != JsonValueKind.Object
                || !item.RootElement.TryGetProperty("id", out var idElement) || idElement.ValueKind != JsonValueKind.String
                || idElement.GetString() is not { Length: > 0 } id)
            {
                return Refuse(operation, operation.Id ?? "", partitionKeyJson, ServiceAnswers.BadRequest("The input content is invalid because the required properties - 'id; ' - are missing."));
            }

            if (id.IndexOfAny(s_forbiddenIdCharacters) >= 0)
            {
                return Refuse(operation, id, partitionKeyJson, ServiceAnswers.BadRequest("The input name '" + id + "' is invalid. Ensure to provide a unique non-empty string less than '255' characters."));
            }

            if (operation.Type == BatchOperationType.Replace && operation.Id is { } target && target != id)
            {
                return Refuse(operation, id, partitionKeyJson, ServiceAnswers.BadRequest("The id in the item does not match the id the replace names."));
            }

            if (!PartitionKeyMatches(item.RootElement, partitionKeyPath, partitionKeyJson))
            {
                return Refuse(operation, id, partitionKeyJson, ServiceAnswers.BadRequest(ServiceAnswers.PartitionKeyMismatchMessage, ServiceAnswers.PartitionKeyMismatchSubstatus));
            }

            return new PlannedOperation(operation, id, partitionKeyJson, cost, null);
        }
    }

    private static PlannedOperation Refuse(BatchOperation operation, string id, string partitionKeyJson, BatchOperationResult refusal) =>
        new(operation, id, partitionKeyJson, 0, refusal);

    /// <summary>Whether the item's value at the partition key path is the partition key named (<c>["LAX"]</c>).</summary>
    private static bool PartitionKeyMatches(JsonElement item, string path, string partitionKeyJson)
    {
        JsonElement expected;
        try
        {
            using var key = JsonDocument.Parse(partitionKeyJson);
            expected = key.RootElement.ValueKind == JsonValueKind.Array && key.RootElement.GetArrayLength() == 1
                ? key.RootElement[0].Clone()
                : key.RootElement.Clone();
        }
        catch (JsonException)
        {
            return false;
        }

        var value = item;
        foreach (var segment in path.Split('/', StringSplitOptions.RemoveEmptyEntries))
        {
            if (value.ValueKind != JsonValueKind.Object || !value.TryGetProperty(segment, out value))
            {
                return false;
            }
        }

        return JsonElement.DeepEquals(value, expected);
    }
}
