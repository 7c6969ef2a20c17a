using Loader.Abstractions;
using Loader.Worker.Backends.Tables;

namespace Loader.Worker.Tests.Simulator;

/// <summary>Batches for the simulator tests, built with the loader's own transaction writer.</summary>
internal static class SimulatorBatches
{
    /// <summary>An entity with one string property <c>d</c> of <paramref name="length"/> ASCII characters.</summary>
    public static LoadEntity Entity(string partitionKey, string rowKey, int length) =>
        new(partitionKey, rowKey, [EntityProperty.FromString("d", new string('x', length))], new RowOrigin(1, 2));

    /// <summary>
    /// The JSON body the loader writes for <see cref="Entity"/>: <c>{"d":"x…"}</c>, with the keys first for an insert.
    /// </summary>
    public static int BodyBytes(LoadEntity entity, WriteMode mode)
    {
        var length = ((string)entity.Properties[0].Value).Length + """{"d":""}""".Length;
        return mode == WriteMode.Insert
            ? length + $"\"PartitionKey\":\"{entity.PartitionKey}\",\"RowKey\":\"{entity.RowKey}\",".Length
            : length;
    }

    public static EntityBatch Batch(WriteMode mode, params LoadEntity[] entities) =>
        new(entities[0].PartitionKey, entities, mode);

    public static byte[] Body(EntityBatch batch, string endpoint = "http://127.0.0.1:10102/devstoreaccount1", string table = "flights") =>
        new TableTransactionContent(new Uri(endpoint), table).Build(batch, "batch_b", "changeset_c").ToArray();
}
