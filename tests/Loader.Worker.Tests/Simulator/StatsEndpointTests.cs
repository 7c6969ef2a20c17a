using System.Net;
using System.Text.Json;
using Loader.Abstractions;
using Loader.ThrottlingSimulator;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Time.Testing;
using static Loader.Worker.Tests.Simulator.SimulatorBatches;

namespace Loader.Worker.Tests.Simulator;

public sealed class StatsEndpointTests(AzuriteFixture azurite)
{
    private static readonly HttpClient Http = new();
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Fact]
    public async Task Stats_are_served_as_camel_case_json_and_reset_zeroes_them_and_refills_the_budget()
    {
        var clock = new FakeTimeProvider();
        await using var simulator = await SimulatorHost.StartAsync(
            new SimulatorOptions { Upstream = new Uri(azurite.Azurite.TableEndpoint), RuPerSecond = 10 }, clock, _cancellation);
        var table = AzuriteFixture.UniqueTableName("stats");
        var client = TableClientFactory.Create(
            new TablesOptions { ConnectionString = azurite.ConnectionString.Replace(azurite.Azurite.TableEndpoint, simulator.TableEndpoint().AbsoluteUri, StringComparison.Ordinal), Table = table },
            TableClientFactory.Options(16, TimeSpan.FromSeconds(30)),
            () => throw new InvalidOperationException("no credential here"));
        var adapter = new TablesAdapter(client, createTable: true, TimeProvider.System);
        await adapter.PrepareAsync(_cancellation);
        var first = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "1", 10), Entity("p", "2", 10)), _cancellation);
        var second = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "3", 10)), _cancellation);
        Assert.Equal((202, 429), (first.StatusCode, second.StatusCode));

        using (var document = JsonDocument.Parse(await Http.GetStringAsync(new Uri(simulator.Endpoint, "_simulator/stats"), _cancellation)))
        {
            var json = document.RootElement;
            Assert.Equal(
                ["requests", "forwarded", "throttled", "faults503", "faults500", "dropped", "held", "abandoned", "upstreamFailures", "requestChargeTotal", "operationsForwarded"],
                json.EnumerateObject().Select(property => property.Name));
            Assert.Equal((2, 1, 1, 10.0, 2), (json.GetProperty("requests").GetInt32(), json.GetProperty("forwarded").GetInt32(),
                json.GetProperty("throttled").GetInt32(), json.GetProperty("requestChargeTotal").GetDouble(), json.GetProperty("operationsForwarded").GetInt32()));
            Assert.Equal(simulator.Stats.Snapshot(), document.Deserialize<SimulatorStatsSnapshot>(JsonSerializerOptions.Web));
        }

        using var reset = await Http.PostAsync(new Uri(simulator.Endpoint, "_simulator/reset"), null, _cancellation);

        Assert.Equal(HttpStatusCode.NoContent, reset.StatusCode);
        Assert.Equal(new SimulatorStatsSnapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), simulator.Stats.Snapshot());
        var afterReset = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "3", 10), Entity("p", "4", 10)), _cancellation);
        Assert.Equal(202, afterReset.StatusCode);
        Assert.Equal(1, simulator.Stats.Snapshot().Forwarded);
    }

    [Fact]
    public async Task Reset_through_the_handle_does_what_the_endpoint_does()
    {
        var clock = new FakeTimeProvider();
        await using var simulator = await SimulatorHost.StartAsync(
            new SimulatorOptions { Upstream = new Uri(azurite.Azurite.TableEndpoint), RuPerSecond = 5 }, clock, _cancellation);
        using var body = new ByteArrayContent(Body(Batch(WriteMode.Upsert, Entity("p", "1", 10))));
        using var first = await Http.PostAsync(new Uri(simulator.Endpoint, "devstoreaccount1/$batch"), body, _cancellation);
        using var second = await Http.PostAsync(new Uri(simulator.Endpoint, "devstoreaccount1/$batch"), body, _cancellation);
        Assert.Equal(429, (int)second.StatusCode);

        simulator.Reset();

        Assert.Equal(0, simulator.Stats.Snapshot().Requests);
        using var third = await Http.PostAsync(new Uri(simulator.Endpoint, "devstoreaccount1/$batch"), body, _cancellation);
        Assert.NotEqual(429, (int)third.StatusCode);
    }
}
