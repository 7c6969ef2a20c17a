using System.Net;
using Loader.CosmosStandIn;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;
using static Loader.Worker.Tests.StandIn.StandInItems;

namespace Loader.Worker.Tests.StandIn.Instant;

/// <summary>
/// The stand-in in instant mode, with no cosmosdb-server behind it, through the real SDK and the real loader: the
/// account, database and container (its partition key definition as created) answer as the service does, every
/// batch and bulk request succeeds at once with the service's shape, queries find nothing, and nothing is kept.
/// </summary>
public sealed class InstantModeTests : IAsyncDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly List<IAsyncDisposable> _owned = [];

    public async ValueTask DisposeAsync()
    {
        foreach (var owned in _owned)
        {
            await owned.DisposeAsync();
        }
    }

    private async Task<StandInHost> StartAsync(StandInOptions? options = null)
    {
        // No upstream is started: an upstream address where nothing listens shows that none is asked.
        var standIn = await StandInHost.StartAsync((options ?? new StandInOptions()) with { Instant = true, Upstream = new Uri("http://127.0.0.1:9/") }, _cancellation);
        _owned.Add(standIn);
        return standIn;
    }

    private async Task<Container> ContainerAsync(CosmosClient client, ContainerProperties properties)
    {
        var database = await client.CreateDatabaseIfNotExistsAsync("instant", cancellationToken: _cancellation);
        var created = await database.Database.CreateContainerIfNotExistsAsync(properties, cancellationToken: _cancellation);
        return created.Container;
    }

    [Fact]
    public async Task Databases_and_containers_are_kept_as_created()
    {
        var standIn = await StartAsync();
        using var client = CosmosStandInFixture.CreateClient(standIn.ConnectionString());
        var properties = new ContainerProperties("sessions", ["/tenantId", "/userId", "/sessionId"]) { DefaultTimeToLive = 60 };

        var container = await ContainerAsync(client, properties);
        var again = await client.GetDatabase("instant").CreateContainerIfNotExistsAsync(properties, cancellationToken: _cancellation);
        var read = await container.ReadContainerAsync(cancellationToken: _cancellation);

        Assert.Equal(HttpStatusCode.OK, again.StatusCode);
        Assert.Equal(["/tenantId", "/userId", "/sessionId"], read.Resource.PartitionKeyPaths);
        Assert.Equal((PartitionKeyDefinitionVersion.V2, 60), (read.Resource.PartitionKeyDefinitionVersion, read.Resource.DefaultTimeToLive));
        var missing = await Assert.ThrowsAsync<CosmosException>(() => client.GetContainer("instant", "nope").ReadContainerAsync(cancellationToken: _cancellation));
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }

    [Fact]
    public async Task A_transactional_batch_succeeds_at_once_with_each_operations_status_and_charge()
    {
        var standIn = await StartAsync();
        using var client = CosmosStandInFixture.CreateClient(standIn.ConnectionString());
        var container = await ContainerAsync(client, new ContainerProperties("flights", "/pk"));

        using var batch = await container.CreateTransactionalBatch(new PartitionKey("p"))
            .CreateItemStream(Stream(new { id = "a", pk = "p" }))
            .UpsertItemStream(Stream(new { id = "b", pk = "p", ttl = 30 }))
            .ReplaceItemStream("c", Stream(new { id = "c", pk = "p" }))
            .DeleteItem("d")
            .PatchItem("e", [PatchOperation.Set("/x", 1)])
            .ExecuteAsync(_cancellation);
        using var refused = await container.CreateTransactionalBatch(new PartitionKey("p"))
            .CreateItemStream(Stream(new { id = "f", pk = "other" }))
            .ExecuteAsync(_cancellation);

        Assert.True(batch.IsSuccessStatusCode, $"{batch.StatusCode}: {batch.ErrorMessage}");
        Assert.Equal(
            [HttpStatusCode.Created, HttpStatusCode.Created, HttpStatusCode.OK, HttpStatusCode.NoContent, HttpStatusCode.OK],
            Enumerable.Range(0, batch.Count).Select(i => batch[i].StatusCode));
        Assert.Equal(25, batch.RequestCharge);
        Assert.All(Enumerable.Range(0, batch.Count), i => Assert.False(string.IsNullOrEmpty(batch[i].ETag)));
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode); // the checks hold in instant mode too
        var stats = standIn.Stats.Snapshot();
        Assert.Equal((2L, 6L, 5L, 2L, 1L), (stats.BatchRequests, stats.Operations, stats.OperationsApplied, stats.ItemsCreated, stats.TransactionsFailed));
        Assert.Equal(1L, stats.ItemTtls["30"]);
        Assert.Null(await ReadAsync(container, "a", new PartitionKey("p"), _cancellation)); // nothing is kept
        Assert.Empty(await QueryAsync(container, "SELECT * FROM c", null, _cancellation));
    }

    [Fact]
    public async Task Bulk_writes_succeed_at_once_and_the_budget_still_applies()
    {
        var standIn = await StartAsync(new StandInOptions { RuPerSecond = 1, BurstSeconds = 10 });
        using var client = CosmosStandInFixture.CreateClient(standIn.ConnectionString(), bulk: true);
        var container = await ContainerAsync(client, new ContainerProperties("bulk", "/pk"));

        var answers = await Task.WhenAll(new[] { "a", "b", "c" }.Select(async id =>
        {
            using var response = await container.CreateItemStreamAsync(Stream(new { id, pk = "p" }), new PartitionKey("p"), cancellationToken: _cancellation);
            return response.StatusCode;
        }));

        Assert.Equal(2, answers.Count(status => status == HttpStatusCode.Created));
        Assert.Equal(1, answers.Count(status => status == HttpStatusCode.TooManyRequests));
    }

    [Theory]
    [InlineData("TransactionalBatch")]
    [InlineData("Bulk")]
    public async Task The_loader_loads_into_it_and_every_row_is_answered(string mode)
    {
        var standIn = await StartAsync();
        using var directory = new TestDirectory();
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Backend"] = "Cosmos",
            ["Loader:Cosmos:ConnectionString"] = standIn.ConnectionString(),
            ["Loader:Cosmos:ConnectionMode"] = "Gateway",
            ["Loader:Cosmos:TrustEmulatorCertificate"] = "true",
            ["Loader:Cosmos:CreateIfMissing"] = "true",
            ["Loader:Cosmos:Database"] = "loads",
            ["Loader:Cosmos:Container"] = "flights",
            ["Loader:Cosmos:Mode"] = mode,
            ["Loader:Input"] = Path.Combine(RepositoryPaths.Data, "sample.csv"),
            ["Loader:PartitionKey"] = "{dest}",
            ["Loader:RowKey"] = "{year}-{month}-{day}-{carrier}-{flight}",
            ["Loader:RejectsPath"] = directory.File("rejects.csv"),
        };

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var stats = standIn.Stats.Snapshot();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((300L, 300L, 300L), (report.RowsWritten, stats.OperationsApplied, stats.ItemsCreated));
        Assert.Equal(stats.RequestChargeTotal, report.RequestCharge);
        Assert.Equal(0L, stats.PassedThrough);
    }
}
