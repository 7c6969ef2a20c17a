using Azure;
using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>Turns the loader's rows into the SDK's transaction actions.</summary>
internal static class TableEntities
{
    private const string EdmTypeSuffix = "@odata.type";

    public static List<TableTransactionAction> Actions(EntityBatch batch)
    {
        var type = batch.Mode switch
        {
            WriteMode.Upsert => TableTransactionActionType.UpsertReplace,
            WriteMode.Merge => TableTransactionActionType.UpsertMerge,
            WriteMode.Insert => TableTransactionActionType.Add,
            WriteMode.Replace => TableTransactionActionType.UpdateReplace,
            WriteMode.Delete => TableTransactionActionType.Delete,
            _ => throw new ArgumentOutOfRangeException(nameof(batch), batch.Mode, "unknown write mode"),
        };

        var actions = new List<TableTransactionAction>(batch.Entities.Count);
        foreach (var entity in batch.Entities)
        {
            actions.Add(type == TableTransactionActionType.Add || type == TableTransactionActionType.UpsertReplace || type == TableTransactionActionType.UpsertMerge
                ? new TableTransactionAction(type, ToTableEntity(entity))
                : new TableTransactionAction(type, Conditional(type, entity), ETag.All));
        }

        return actions;
    }

    /// <summary>
    /// Replace and Delete go with If-Match * (<see cref="ETag.All"/>): they apply to whatever is stored under the keys, and a
    /// missing entity is the service's 404. A delete needs only the keys.
    /// </summary>
    private static TableEntity Conditional(TableTransactionActionType type, LoadEntity entity) =>
        type == TableTransactionActionType.Delete ? new TableEntity(entity.PartitionKey, entity.RowKey) : ToTableEntity(entity);

    public static TableEntity ToTableEntity(LoadEntity entity)
    {
        var tableEntity = new TableEntity(entity.PartitionKey, entity.RowKey);
        foreach (var property in entity.PropertySpan)
        {
            if (property.Type == ColumnType.Double && !double.IsFinite(property.AsDouble()))
            {
                // JSON has no infinity; the service takes it as a string annotated Edm.Double (the SDK would throw).
                tableEntity[property.Name] = property.AsDouble() > 0 ? "Infinity" : "-Infinity";
                tableEntity[property.Name + EdmTypeSuffix] = "Edm.Double";
                continue;
            }

            // The SDK annotates Int64, Double, DateTime and Guid by their CLR types; a DateTime is UTC here.
            tableEntity[property.Name] = property.Value;
        }

        return tableEntity;
    }
}
