using System.Globalization;
using System.Text.Json;
using Azure.Core.Pipeline;
using Azure.Data.Tables;
using Loader.Abstractions;
using Loader.ThrottlingSimulator;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Time.Testing;
using static Loader.Worker.Tests.Simulator.SimulatorBatches;

namespace Loader.Worker.Tests.Simulator;

/// <summary>The simulator in front of the fixture's Azurite, driven by the loader's own Tables adapter.</summary>
public sealed class ProxyEndpointTests(AzuriteFixture azurite) : IAsyncDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private static readonly HttpClient Http = new();
    private readonly List<SimulatorHost> _simulators = [];

    public async ValueTask DisposeAsync()
    {
        foreach (var simulator in _simulators)
        {
            await simulator.DisposeAsync();
        }
    }

    [Fact]
    public async Task Within_budget_a_batch_lands_and_reports_its_charge()
    {
        var simulator = await StartAsync(new SimulatorOptions { RuPerSecond = 1000 });
        var (adapter, table) = await CreateTableAsync(simulator);
        Assert.Equal(0, simulator.Stats.Snapshot().Requests);

        // Two 1.5 KB entities (2 kilobytes each) and three small ones (1 each): 7 kilobytes at 5 RU.
        var batch = Batch(WriteMode.Upsert, Entity("p", "a", 1500), Entity("p", "b", 1500), Entity("p", "c", 1), Entity("p", "d", 1), Entity("p", "e", 1));
        var result = await adapter.WriteBatchAsync(batch, _cancellation);

        Assert.Equal((BatchStatus.Written, 202, 35.0), (result.Status, result.StatusCode, result.RequestCharge));

        // The inner request URLs named the simulator's host and port; Azurite went by their paths and stored every row.
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(["a", "b", "c", "d", "e"], stored.Keys.Select(key => key.Item2).Order());
        Assert.Equal(new string('x', 1500), stored[("p", "a")].Properties["d"]);

        Assert.Equal(new SimulatorStatsSnapshot(Requests: 1, Forwarded: 1, Throttled: 0, Faults503: 0, Faults500: 0, Dropped: 0, Held: 0, Abandoned: 0, UpstreamFailures: 0, RequestChargeTotal: 35, OperationsForwarded: 5), simulator.Stats.Snapshot());
    }

    [Fact]
    public async Task Azurite_goes_by_the_path_of_an_inner_request_url_whatever_its_host()
    {
        // What lets the simulator forward batches untouched: the inner URLs name the simulator, not Azurite. Here the
        // client believes the service is elsewhere.invalid and the transport carries the request to Azurite instead.
        var table = AzuriteFixture.UniqueTableName("sim");
        await azurite.Client.CreateTableIfNotExistsAsync(table, _cancellation);
        var options = new TableClientOptions { Transport = new HttpClientTransport(new RedirectingHandler(new Uri(azurite.Azurite.TableEndpoint))) };
        var elsewhere = new TableClient(azurite.ConnectionString.Replace(azurite.Azurite.TableEndpoint, "http://elsewhere.invalid:1/devstoreaccount1", StringComparison.Ordinal), table, options);

        var result = await new TablesAdapter(elsewhere, createTable: false, TimeProvider.System)
            .WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "1", 10), Entity("p", "2", 10)), _cancellation);

        Assert.Equal(202, result.StatusCode);
        Assert.Equal(2, (await azurite.ReadTableAsync(table, _cancellation)).Count);
    }

    [Theory]
    [InlineData(WriteMode.Merge)]
    [InlineData(WriteMode.Insert)]
    public async Task Merge_and_insert_batches_are_charged_like_upserts(WriteMode mode)
    {
        var simulator = await StartAsync(new SimulatorOptions { RuPerSecond = 1000, RuPerKilobyte = 2 });
        var (adapter, table) = await CreateTableAsync(simulator);

        var result = await adapter.WriteBatchAsync(Batch(mode, Entity("k'1", "a", 3000), Entity("k'1", "b", 10)), _cancellation);

        Assert.Equal((BatchStatus.Written, 202), (result.Status, result.StatusCode));
        Assert.Equal(2 * 3 + 2 * 1, result.RequestCharge);
        Assert.Equal(2, (await azurite.ReadTableAsync(table, _cancellation)).Count);
    }

    [Fact]
    public async Task Over_budget_a_batch_is_refused_with_a_retry_after_and_nothing_is_written()
    {
        var clock = new FakeTimeProvider();
        var simulator = await StartAsync(new SimulatorOptions { RuPerSecond = 20 }, clock);
        var (adapter, table) = await CreateTableAsync(simulator);

        var first = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "1", 10), Entity("p", "2", 10), Entity("p", "3", 10)), _cancellation);
        var second = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "4", 10), Entity("p", "5", 10), Entity("p", "6", 10)), _cancellation);

        Assert.Equal((202, 15.0), (first.StatusCode, first.RequestCharge));

        // 5 RU left of 20, 15 needed: 10 RU at 20 RU/s.
        Assert.Equal((BatchStatus.Throttled, 429, 1), (second.Status, second.StatusCode, second.ThrottledResponses));
        Assert.Equal(TimeSpan.FromMilliseconds(500), second.RetryAfter);
        Assert.Equal(0, second.RequestCharge);
        Assert.StartsWith("429 TooManyRequests: Request rate is large.", second.Error, StringComparison.Ordinal);
        Assert.Equal(["1", "2", "3"], (await azurite.ReadTableAsync(table, _cancellation)).Keys.Select(key => key.Item2).Order());

        clock.Advance(TimeSpan.FromMilliseconds(499));
        var early = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "4", 10), Entity("p", "5", 10), Entity("p", "6", 10)), _cancellation);
        Assert.Equal((429, TimeSpan.FromMilliseconds(1)), (early.StatusCode, early.RetryAfter));

        clock.Advance(TimeSpan.FromMilliseconds(1));
        var retried = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "4", 10), Entity("p", "5", 10), Entity("p", "6", 10)), _cancellation);
        Assert.Equal((202, 15.0), (retried.StatusCode, retried.RequestCharge));
        Assert.Equal(6, (await azurite.ReadTableAsync(table, _cancellation)).Count);

        Assert.Equal(new SimulatorStatsSnapshot(Requests: 4, Forwarded: 2, Throttled: 2, Faults503: 0, Faults500: 0, Dropped: 0, Held: 0, Abandoned: 0, UpstreamFailures: 0, RequestChargeTotal: 30, OperationsForwarded: 6), simulator.Stats.Snapshot());
    }

    [Fact]
    public async Task A_refused_row_is_named_by_index_with_the_charge_of_the_whole_answer()
    {
        var simulator = await StartAsync(new SimulatorOptions { RuPerSecond = 1000 });
        var (adapter, table) = await CreateTableAsync(simulator);
        await adapter.WriteBatchAsync(Batch(WriteMode.Insert, Entity("p", "b", 10)), _cancellation);

        var result = await adapter.WriteBatchAsync(Batch(WriteMode.Insert, Entity("p", "a", 10), Entity("p", "b", 10), Entity("p", "c", 10)), _cancellation);

        Assert.Equal(BatchStatus.OperationsRejected, result.Status);
        var failure = Assert.Single(result.OperationFailures);
        Assert.Equal((1, 409, "EntityAlreadyExists"), (failure.Index, failure.StatusCode, failure.Code));
        Assert.DoesNotContain('\n', failure.Message);
        Assert.StartsWith("The specified entity already exists", failure.Message, StringComparison.Ordinal);
        // The whole answer's x-ms-request-charge (3 operations of 1 KiB at 5 RU), which the SDK's exception does not carry.
        Assert.Equal(15.0, result.RequestCharge);
        Assert.Equal(["b"], (await azurite.ReadTableAsync(table, _cancellation)).Keys.Select(key => key.Item2));
    }

    [Fact]
    public async Task A_refusal_carries_the_cosmos_headers_and_a_table_error_body()
    {
        var clock = new FakeTimeProvider();
        var simulator = await StartAsync(new SimulatorOptions { RuPerSecond = 10 }, clock);

        // Unsigned: the first is forwarded and refused by Azurite, the second refused by the simulator itself.
        // The first costs 15 RU, more than the whole bucket of 10, so it goes through on a full bucket and leaves
        // it 5 RU in debt; the second then waits for a full bucket again, 15 RU at 10 RU/s.
        var body = Body(Batch(WriteMode.Upsert, Entity("p", "1", 3000)));
        using var forwarded = await PostBatchAsync(simulator, body);
        using var refused = await PostBatchAsync(simulator, body);

        Assert.Equal((403, "15"), ((int)forwarded.StatusCode, Header(forwarded, "x-ms-request-charge")));
        Assert.Equal(429, (int)refused.StatusCode);
        Assert.Equal("1500", Header(refused, "x-ms-retry-after-ms"));
        Assert.Equal("3200", Header(refused, "x-ms-substatus"));
        Assert.Equal("0", Header(refused, "x-ms-request-charge"));
        using var error = JsonDocument.Parse(await refused.Content.ReadAsStringAsync(_cancellation));
        var odata = error.RootElement.GetProperty("odata.error");
        Assert.Equal("TooManyRequests", odata.GetProperty("code").GetString());
        Assert.Equal("en-US", odata.GetProperty("message").GetProperty("lang").GetString());
        Assert.StartsWith("Request rate is large.\nRequestId:", odata.GetProperty("message").GetProperty("value").GetString(), StringComparison.Ordinal);
        var stats = simulator.Stats.Snapshot();
        Assert.Equal((2L, 1L, 1L, 15.0), (stats.Requests, stats.Forwarded, stats.Throttled, stats.RequestChargeTotal));
    }

    [Fact]
    public async Task A_partition_budget_throttles_a_hot_partition_and_lets_others_through()
    {
        var clock = new FakeTimeProvider();
        var simulator = await StartAsync(new SimulatorOptions { RuPerSecond = 10_000, PartitionRuPerSecond = 10 }, clock);
        var (adapter, table) = await CreateTableAsync(simulator);

        var hot = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("hot", "1", 10), Entity("hot", "2", 10)), _cancellation);
        var again = await adapter.WriteBatchAsync(Batch(WriteMode.Insert, Entity("hot", "3", 10)), _cancellation);
        var cold = await adapter.WriteBatchAsync(Batch(WriteMode.Insert, Entity("cold", "1", 10), Entity("cold", "2", 10)), _cancellation);

        Assert.Equal([202, 429, 202], [hot.StatusCode, again.StatusCode, cold.StatusCode]);
        Assert.Equal(TimeSpan.FromMilliseconds(500), again.RetryAfter);
        Assert.Equal(4, (await azurite.ReadTableAsync(table, _cancellation)).Count);
    }

    [Theory]
    [InlineData(1.0, 0.0, 503, "ServerBusy")]
    [InlineData(0.0, 1.0, 500, "OperationTimedOut")]
    public async Task A_fault_rate_of_one_answers_every_batch_with_the_fault(double rate503, double rate500, int status, string code)
    {
        var simulator = await StartAsync(new SimulatorOptions { Fault503Rate = rate503, Fault500Rate = rate500 });
        var (adapter, table) = await CreateTableAsync(simulator);

        for (var i = 0; i < 5; i++)
        {
            var result = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", $"r{i}", 10)), _cancellation);
            Assert.Equal((BatchStatus.Throttled, status), (result.Status, result.StatusCode));
            Assert.StartsWith($"{status} {code}", result.Error, StringComparison.Ordinal);
        }

        Assert.Empty(await azurite.ReadTableAsync(table, _cancellation));
        var stats = simulator.Stats.Snapshot();
        Assert.Equal((5L, 0L, 0L, 0.0), (stats.Requests, stats.Forwarded, stats.Throttled, stats.RequestChargeTotal));
        Assert.Equal(status == 503 ? 5 : 0, stats.Faults503);
        Assert.Equal(status == 500 ? 5 : 0, stats.Faults500);
    }

    [Fact]
    public async Task A_drop_rate_of_one_cuts_the_connection_which_the_adapter_reports_as_transient()
    {
        var simulator = await StartAsync(new SimulatorOptions { DropRate = 1 });
        var (adapter, table) = await CreateTableAsync(simulator);

        var result = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "1", 10)), _cancellation);

        Assert.Equal((BatchStatus.Transient, 0), (result.Status, result.StatusCode));
        Assert.StartsWith("no answer from the service", result.Error, StringComparison.Ordinal);
        Assert.Empty(await azurite.ReadTableAsync(table, _cancellation));
        Assert.Equal((1, 1, 0), (simulator.Stats.Snapshot().Requests, simulator.Stats.Snapshot().Dropped, simulator.Stats.Snapshot().Forwarded));
    }

    [Fact]
    public async Task Added_latency_delays_the_forwarded_batch()
    {
        var simulator = await StartAsync(new SimulatorOptions { LatencyMs = 300 });
        var (adapter, _) = await CreateTableAsync(simulator);

        var started = TimeProvider.System.GetTimestamp();
        var result = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "1", 10)), _cancellation);

        Assert.Equal(202, result.StatusCode);
        Assert.True(TimeProvider.System.GetElapsedTime(started) >= TimeSpan.FromMilliseconds(290), "the batch waited the added latency");
    }

    [Fact]
    public async Task Requests_other_than_batches_pass_through_uncharged()
    {
        var simulator = await StartAsync(new SimulatorOptions { RuPerSecond = 1 });
        var table = AzuriteFixture.UniqueTableName("sim");
        var client = ClientFor(simulator, table);
        await client.CreateAsync(_cancellation);
        await azurite.Client.GetTableClient(table).AddEntityAsync(new TableEntity("p", "1") { ["d"] = new string('x', 5000) }, _cancellation);

        var read = new List<TableEntity>();
        await foreach (var entity in client.QueryAsync<TableEntity>("PartitionKey eq 'p'", cancellationToken: _cancellation))
        {
            read.Add(entity);
        }

        using var unsigned = await Http.GetAsync(new Uri(simulator.Endpoint, "devstoreaccount1/Tables"), _cancellation);
        await client.DeleteAsync(_cancellation);

        Assert.Single(read);
        Assert.False(unsigned.Headers.Contains("x-ms-request-charge"));
        Assert.Equal(0, simulator.Stats.Snapshot().Requests);
    }

    [Fact]
    public async Task An_upstream_that_does_not_answer_gives_a_502()
    {
        var simulator = await StartAsync(new SimulatorOptions(), upstream: new Uri($"http://127.0.0.1:{AzuriteProcess.FreePort()}"));
        var adapter = new TablesAdapter(ClientFor(simulator, "missing"), createTable: false, TimeProvider.System);

        var result = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity("p", "1", 10)), _cancellation);

        Assert.Equal((BatchStatus.Transient, 502), (result.Status, result.StatusCode));
        Assert.StartsWith("502 UpstreamUnavailable", result.Error, StringComparison.Ordinal);
        Assert.Equal((1, 1, 1, 0.0), (simulator.Stats.Snapshot().Requests, simulator.Stats.Snapshot().Forwarded, simulator.Stats.Snapshot().UpstreamFailures, simulator.Stats.Snapshot().RequestChargeTotal));
    }

    [Fact]
    public async Task Stats_count_exactly_what_was_sent_under_concurrency()
    {
        var simulator = await StartAsync(new SimulatorOptions { RuPerSecond = 200, Fault503Rate = 0.2, Seed = 5 });
        var (adapter, table) = await CreateTableAsync(simulator);

        var results = await Task.WhenAll(Enumerable.Range(0, 40).Select(i =>
            adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity($"p{i}", "a", 10), Entity($"p{i}", "b", 2000)), _cancellation)));

        var stats = simulator.Stats.Snapshot();
        var accepted = results.Where(result => result.StatusCode == 202).ToList();
        Assert.Equal(40, stats.Requests);
        Assert.Equal(accepted.Count, stats.Forwarded);
        Assert.Equal(results.Count(result => result.StatusCode == 429), stats.Throttled);
        Assert.Equal(results.Count(result => result.StatusCode == 503), stats.Faults503);
        Assert.Equal(stats.Requests, stats.Forwarded + stats.Throttled + stats.Faults503);
        Assert.Equal(results.Sum(result => result.RequestCharge ?? (result.StatusCode == 503 ? 0 : double.NaN)), stats.RequestChargeTotal);
        Assert.Equal(accepted.Count * 15.0, stats.RequestChargeTotal);
        Assert.Equal(accepted.Count * 2, stats.OperationsForwarded);
        Assert.Equal(accepted.Count * 2, (await azurite.ReadTableAsync(table, _cancellation)).Count);
        Assert.InRange(stats.Throttled, 1, 39);
    }

    private async Task<SimulatorHost> StartAsync(SimulatorOptions options, TimeProvider? clock = null, Uri? upstream = null)
    {
        var simulator = await SimulatorHost.StartAsync(options with { Upstream = upstream ?? new Uri(azurite.Azurite.TableEndpoint), Port = 0 }, clock ?? TimeProvider.System, _cancellation);
        _simulators.Add(simulator);
        return simulator;
    }

    private static TableClient ClientFor(SimulatorHost simulator, string table) =>
        TableClientFactory.Create(
            new TablesOptions
            {
                ConnectionString = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
                    + $"AccountKey={AzuriteProcess.DevelopmentAccountKey};"
                    + string.Create(CultureInfo.InvariantCulture, $"TableEndpoint=http://127.0.0.1:{simulator.Port}/devstoreaccount1"),
                Table = table,
            },
            TableClientFactory.Options(16, TimeSpan.FromSeconds(30)),
            () => throw new InvalidOperationException("no credential here"));

    private async Task<(TablesAdapter Adapter, string Table)> CreateTableAsync(SimulatorHost simulator)
    {
        var table = AzuriteFixture.UniqueTableName("sim");
        var adapter = new TablesAdapter(ClientFor(simulator, table), createTable: true, TimeProvider.System);
        await adapter.PrepareAsync(_cancellation);
        return (adapter, table);
    }

    private async Task<HttpResponseMessage> PostBatchAsync(SimulatorHost simulator, byte[] body)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, new Uri(simulator.Endpoint, "devstoreaccount1/$batch"))
        {
            Content = new ByteArrayContent(body),
        };
        return await Http.SendAsync(request, _cancellation);
    }

    private static string? Header(HttpResponseMessage response, string name) =>
        response.Headers.TryGetValues(name, out var values) ? string.Join(",", values) : null;

    /// <summary>Sends every request to <paramref name="target"/>'s host and port, keeping its path and query.</summary>
    private sealed class RedirectingHandler(Uri target) : DelegatingHandler(new SocketsHttpHandler())
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            request.RequestUri = new UriBuilder(request.RequestUri!) { Host = target.Host, Port = target.Port }.Uri;
            return base.SendAsync(request, cancellationToken);
        }
    }
}
