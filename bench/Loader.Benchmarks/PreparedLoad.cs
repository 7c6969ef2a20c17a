using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Batching;
using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Mapping;

namespace Loader.Benchmarks;

/// <summary>
/// The input mapped and batched by the loader's own mapper and batcher, with its default settings, before any
/// clock starts: the baselines then time nothing but writing, on the very batches the loader would send.
/// </summary>
internal sealed record PreparedLoad(IReadOnlyList<LoadEntity> Entities, IReadOnlyList<EntityBatch> Batches)
{
    public static PreparedLoad Create(string csvPath, int columns)
    {
        // The adapter only sizes and checks entities here; its client never connects.
        var client = new Azure.Data.Tables.TableClient(TablesOptions.DevelopmentStorage, FlightSchema.Table);
        var adapter = new TablesAdapter(client, createTable: false, TimeProvider.System);
        using var stream = File.OpenRead(csvPath);
        using var reader = CsvRecordReader.Open(stream, new CsvOptions());
        var plan = MappingPlan.Create(
            reader.Header, KeyTemplate.Parse(FlightSchema.PartitionKey), KeyTemplate.Parse(FlightSchema.RowKey), FlightSchema.ColumnTypes(columns), adapter);
        var converter = new ColumnConverter(CultureInfo.InvariantCulture);

        // A mapper holds scratch buffers: one per mapping thread, as the loader's read stage does.
        using var mappers = new ThreadLocal<EntityMapper>(() => new EntityMapper(plan, adapter, converter));
        var entities = new List<LoadEntity>();
        foreach (var record in reader.ReadAll(csv => mappers.Value!.Map(new CsvFields(csv)), Environment.ProcessorCount))
        {
            entities.Add(record.Value.Entity ?? throw new InvalidDataException(
                $"record {record.Value.Origin.Record} of {csvPath} was not mapped: {record.Value.RejectReason ?? record.Malformed?.Problem}"));
        }

        var defaults = new LoaderOptions();
        var policy = new BatchingPolicy(
            Math.Min(defaults.BatchSize, adapter.Limits.MaxOperationsPerBatch), adapter.Limits.MaxBatchPayloadBytes, defaults.MaxBufferedRows ?? int.MaxValue, defaults.MaxBufferedBytes ?? BufferBudget.ForThisProcess(), defaults.WriteMode);
        var batcher = new PartitionBatcher(policy, entity => adapter.Inspect(entity.PartitionKey, entity.RowKey, entity.Properties.ToArray()));
        var ready = new List<ReadyBatch>();
        foreach (var entity in entities)
        {
            batcher.Add(entity, ready);
        }

        batcher.Flush(ready);
        return new PreparedLoad(entities, [.. ready.Select(batch => batch.Batch)]);
    }
}
