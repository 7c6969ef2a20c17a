using Loader.Abstractions;
using Loader.Worker.Csv;

namespace Loader.Worker.Mapping;

/// <summary>Turns records into entities: renders the keys, types the cells, drops empty ones, and asks the backend whether it would accept the result.</summary>
public sealed class EntityMapper(MappingPlan plan, IBackendAdapter backend, ColumnConverter converter)
{
    private readonly List<EntityProperty> _scratch = new(plan.Columns.Count);

    public MapResult Map(in CsvRecord record)
    {
        if (record.Problem is { } problem)
        {
            return MapResult.Reject(problem);
        }

        var fields = record.Fields;
        for (var i = 0; i < fields.Length; i++)
        {
            if (fields[i].Contains('\uFFFD', StringComparison.Ordinal))
            {
                return MapResult.Reject($"column '{plan.Header[i]}' holds bytes that are not valid UTF-8");
            }
        }

        var partitionKey = plan.PartitionKey.Render(fields, out var emptyColumn);
        if (partitionKey is null)
        {
            return MapResult.Reject($"partition key is empty: column '{emptyColumn}' is empty");
        }

        var rowKey = plan.RowKey.Render(fields, out emptyColumn);
        if (rowKey is null)
        {
            return MapResult.Reject($"row key is empty: column '{emptyColumn}' is empty");
        }

        _scratch.Clear();
        foreach (var column in plan.Columns)
        {
            var text = fields[column.Index];
            if (text.Length == 0)
            {
                continue;
            }

            if (!converter.TryConvert(column.Type, text, out var value))
            {
                return MapResult.Reject($"column '{column.Name}': '{Shorten(text)}' is not a valid {column.Type}");
            }

            _scratch.Add(new EntityProperty(column.Name, column.Type, value));
        }

        var entity = new LoadEntity(partitionKey, rowKey, _scratch.ToArray(), record.Origin, SourceFields: fields);
        var inspection = backend.Inspect(entity);
        return inspection.Violation is { } violation
            ? MapResult.Reject(violation)
            : MapResult.Accept(entity with { PayloadBytes = inspection.PayloadBytes });
    }

    private static string Shorten(string text) => text.Length <= 40 ? text : text[..40] + "…";
}
