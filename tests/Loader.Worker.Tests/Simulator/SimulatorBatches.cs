using System.Net;
using System.Text.Json;
using Azure.Core.Pipeline;
using Azure.Data.Tables;
using Loader.Abstractions;
using Loader.Worker.Backends.Tables;

namespace Loader.Worker.Tests.Simulator;

/// <summary>Batches for the simulator tests, and their bodies as the loader's Table client (the SDK) writes them.</summary>
internal static class SimulatorBatches
{
    /// <summary>An entity with one string property <c>d</c> of <paramref name="length"/> ASCII characters.</summary>
    public static LoadEntity Entity(string partitionKey, string rowKey, int length) =>
        new(partitionKey, rowKey, [EntityProperty.FromString("d", new string('x', length))], new RowOrigin(1, 2));

    /// <summary>
    /// The JSON body the SDK writes for <see cref="Entity"/>, whatever the operation:
    /// <c>{"PartitionKey":"…","RowKey":"…","d":"x…"}</c>, escaped as System.Text.Json escapes by default.
    /// </summary>
    public static int BodyBytes(LoadEntity entity) =>
        JsonSerializer.SerializeToUtf8Bytes(new Dictionary<string, string>
        {
            ["PartitionKey"] = entity.PartitionKey,
            ["RowKey"] = entity.RowKey,
            ["d"] = (string)entity.Properties[0].Value,
        }).Length;

    public static EntityBatch Batch(WriteMode mode, params LoadEntity[] entities) =>
        new(entities[0].PartitionKey, entities, mode);

    /// <summary>The multipart body the loader's adapter sends for <paramref name="batch"/> with <paramref name="writer"/>, caught before it leaves.</summary>
    public static byte[] Body(EntityBatch batch, string endpoint = "http://127.0.0.1:10102/devstoreaccount1", string table = "flights", TableWriter writer = TableWriter.Sdk)
    {
        var capture = new CapturingHandler();
        var options = new TableClientOptions { Transport = new HttpClientTransport(capture) };
        options.Retry.MaxRetries = 0;
        var tables = new TablesOptions { ConnectionString = Infrastructure.AzuriteProcess.ConnectionStringAt(endpoint), Table = table, Writer = writer };
        Func<Azure.Core.TokenCredential> noCredential = () => throw new InvalidOperationException("no credential here");
        var client = TableClientFactory.Create(tables, options, noCredential);
        var adapter = new TablesAdapter(client, createTable: false, TimeProvider.System, TableClientFactory.CreateSender(tables, client, options, noCredential, TimeProvider.System));
        _ = adapter.WriteBatchAsync(batch, CancellationToken.None).GetAwaiter().GetResult();
        return capture.Body ?? throw new InvalidOperationException("the adapter sent nothing");
    }

    /// <summary>Keeps the request body and answers 400, which the adapter reports as a failed batch.</summary>
    private sealed class CapturingHandler : HttpMessageHandler
    {
        public byte[]? Body { get; private set; }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Body = await request.Content!.ReadAsByteArrayAsync(cancellationToken);
            return new HttpResponseMessage(HttpStatusCode.BadRequest) { Content = new StringContent("") };
        }
    }
}
