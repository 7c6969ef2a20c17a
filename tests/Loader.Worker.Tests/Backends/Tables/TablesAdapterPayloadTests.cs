using Loader.Abstractions;
using Loader.Worker.Backends.Tables;
using static Loader.Worker.Tests.Simulator.SimulatorBatches;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>
/// The sizes the adapter gives entities (<see cref="TablesAdapter.Inspect"/>) bound what the SDK really sends, so a
/// batch the batcher closes under the 4 MiB limit is under it on the wire, with either writer. The request bodies are
/// caught before they leave.
/// </summary>
public sealed class TablesAdapterPayloadTests
{
    private static readonly TablesAdapter s_sizer = new(
        new Azure.Data.Tables.TableClient($"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={Infrastructure.AzuriteProcess.DevelopmentAccountKey};TableEndpoint=http://127.0.0.1:10002/devstoreaccount1", "flights"), createTable: false, TimeProvider.System);

    public static TheoryData<string, string, string> Shapes => new()
    {
        { "plain", "LAX", "2024-1-1-AA-{0}" },
        { "escaped", "O'Brien \"quoted\" & <tags>", "r'{0}'%20+" },
        { "non-ASCII", "Zürich 東京", "ключ-{0}-€" },
    };

    [Theory]
    [MemberData(nameof(Shapes))]
    public void A_full_batch_on_the_wire_is_no_larger_than_its_entities_sizes(string shape, string partitionKey, string rowKeyFormat)
    {
        foreach (var mode in Enum.GetValues<WriteMode>())
        {
            // Under Delete a row is its keys alone: the mapping makes no property of the other columns.
            var entities = Enumerable.Range(0, 100).Select(i => Row(partitionKey, string.Format(System.Globalization.CultureInfo.InvariantCulture, rowKeyFormat, i), i, shape, keysOnly: mode == WriteMode.Delete)).ToArray();
            var estimated = entities.Sum(entity => (long)entity.PayloadBytes);

            foreach (var writer in Enum.GetValues<TableWriter>())
            {
                var body = Body(new EntityBatch(partitionKey, entities, mode), "http://127.0.0.1:10002/devstoreaccount1", "flights", writer);

                Assert.True(body.Length <= estimated, $"{shape}, {mode}, {writer}: {body.Length:N0} bytes sent, {estimated:N0} estimated");
                // The estimate is an upper bound, not a wild one: batches are not cut much smaller than they could be.
                Assert.True(estimated <= body.Length * 3, $"{shape}, {mode}, {writer}: {body.Length:N0} bytes sent, {estimated:N0} estimated");
            }
        }
    }

    [Theory]
    [InlineData(nameof(TableWriter.Direct))]
    [InlineData(nameof(TableWriter.Sdk))]
    public async Task An_attempt_reports_the_size_of_the_request_body_that_left(string writerName)
    {
        var writer = Enum.Parse<TableWriter>(writerName);
        var handler = new CapturingHandler();
        var options = TableClientFactory.Options(4, TimeSpan.FromSeconds(30));
        options.Transport = new Azure.Core.Pipeline.HttpClientTransport(handler);
        var tables = new TablesOptions { ConnectionString = Infrastructure.AzuriteProcess.ConnectionStringAt("http://127.0.0.1:10002/devstoreaccount1"), Table = "flights", Writer = writer };
        Func<Azure.Core.TokenCredential> noCredential = () => throw new InvalidOperationException("no credential here");
        var client = TableClientFactory.Create(tables, options, noCredential);
        var adapter = new TablesAdapter(client, createTable: false, TimeProvider.System, TableClientFactory.CreateSender(tables, client, options, noCredential, TimeProvider.System));
        var entities = Enumerable.Range(0, 20).Select(i => Row("LAX", $"2024-1-1-AA-{i}", i, "non-ASCII", keysOnly: false)).ToArray();

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("LAX", entities, WriteMode.Upsert), TestContext.Current.CancellationToken);

        Assert.Equal((writer, 400), (adapter.Writer, outcome.StatusCode));
        Assert.Equal(handler.Body!.Length, outcome.RequestBytes);
    }

    /// <summary>Keeps the request body and answers 400, which the adapter reports as a failed batch.</summary>
    private sealed class CapturingHandler : HttpMessageHandler
    {
        public byte[]? Body { get; private set; }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Body = await request.Content!.ReadAsByteArrayAsync(cancellationToken);
            return new HttpResponseMessage(System.Net.HttpStatusCode.BadRequest) { Content = new StringContent("") };
        }
    }

    private static LoadEntity Row(string partitionKey, string rowKey, int i, string shape, bool keysOnly)
    {
        var text = shape == "non-ASCII" ? "Ünïcödé ✈ текст" : shape == "escaped" ? "a \"quoted\" <b>&</b> \\ back" : "plain text";
        EntityProperty[] properties =
        [
            EntityProperty.FromInt32("year", 2024), EntityProperty.FromInt32("flight", i), EntityProperty.FromBoolean("cancelled", i % 2 == 0),
            EntityProperty.FromInt64("big", long.MaxValue - i), EntityProperty.FromDouble("m1", i / 3.0), EntityProperty.FromDouble("m2", -1e300),
            EntityProperty.FromDateTime("when", new DateTime(2024, 5, 6, 7, 8, 9, DateTimeKind.Utc)), EntityProperty.FromGuid("id", Guid.NewGuid()),
            EntityProperty.FromString("note", text), EntityProperty.FromString("carrier", "AA"),
        ];
        if (keysOnly)
        {
            properties = [];
        }

        var inspection = s_sizer.Inspect(partitionKey, rowKey, properties);
        Assert.True(inspection.IsValid, inspection.Violation);
        return new LoadEntity(partitionKey, rowKey, properties, new RowOrigin(i + 1, i + 2), inspection.PayloadBytes);
    }
}
