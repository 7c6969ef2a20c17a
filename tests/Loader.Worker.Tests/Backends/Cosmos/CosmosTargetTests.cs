using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>Creating and checking the database and container before a load, through the real SDK against the stand-in and cosmosdb-server.</summary>
public sealed class CosmosTargetTests(CosmosStandInFixture cosmos)
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly string _container = CosmosStandInFixture.UniqueContainerName("target");

    private CosmosAdapter Adapter(bool create = true, string path = "/pk", string database = CosmosStandInFixture.Database) =>
        cosmos.CreateAdapter(_container, configure: options =>
        {
            options.Database = database;
            options.PartitionKeyPath = path;
            options.CreateIfMissing = create;
        });

    [Fact]
    public async Task Prepare_creates_the_database_and_container_on_the_configured_path_and_is_idempotent()
    {
        await using var adapter = Adapter(database: "created" + _container);

        await adapter.PrepareAsync(_cancellation);
        await adapter.PrepareAsync(_cancellation);

        var container = await cosmos.Client.GetContainer("created" + _container, _container).ReadContainerAsync(cancellationToken: _cancellation);
        Assert.Equal("/pk", container.Resource.PartitionKeyPath);
    }

    [Fact]
    public async Task Prepare_refuses_a_container_partitioned_on_another_path()
    {
        await using (var creating = Adapter())
        {
            await creating.PrepareAsync(_cancellation);
        }

        await using var adapter = Adapter(create: false, path: "/dest");
        var exception = await Assert.ThrowsAsync<TargetMismatchException>(() => adapter.PrepareAsync(_cancellation));

        Assert.Equal($"container '{_container}' is partitioned on '/pk', but Loader:Cosmos:PartitionKeyPath is '/dest': the settings must name the container's partition key paths, in order.", exception.Message);
    }

    [Fact]
    public async Task Prepare_without_creation_names_the_missing_container()
    {
        await using var adapter = Adapter(create: false);

        var exception = await Assert.ThrowsAsync<InvalidOperationException>(() => adapter.PrepareAsync(_cancellation));

        Assert.StartsWith($"database 'loads' or container '{_container}' does not exist", exception.Message, StringComparison.Ordinal);
    }


    [Fact]
    public async Task Prepare_creates_a_container_with_a_hierarchical_key_from_the_paths_in_order()
    {
        await using var adapter = cosmos.CreateAdapter(_container, configure: options => options.PartitionKeyPaths = "/tenantId,/user/id,/sessionId");

        await adapter.PrepareAsync(_cancellation);

        var container = await cosmos.Client.GetContainer(CosmosStandInFixture.Database, _container).ReadContainerAsync(cancellationToken: _cancellation);
        Assert.Equal(["/tenantId", "/user/id", "/sessionId"], container.Resource.PartitionKeyPaths);
        Assert.Equal(Microsoft.Azure.Cosmos.PartitionKeyDefinitionVersion.V2, container.Resource.PartitionKeyDefinitionVersion);
    }

    [Fact]
    public async Task Prepare_refuses_a_container_whose_hierarchy_differs_naming_both_definitions()
    {
        await using (var creating = cosmos.CreateAdapter(_container, configure: options => options.PartitionKeyPaths = "/origin,/dest"))
        {
            await creating.PrepareAsync(_cancellation);
        }

        await using var reversed = cosmos.CreateAdapter(_container, configure: options => (options.PartitionKeyPaths, options.CreateIfMissing) = ("/dest,/origin", false));
        await using var single = Adapter(create: false, path: "/origin");

        Assert.Equal(
            $"container '{_container}' is partitioned on '/origin,/dest' (hierarchical), but Loader:Cosmos:PartitionKeyPaths is '/dest,/origin' (hierarchical): the settings must name the container's partition key paths, in order.",
            (await Assert.ThrowsAsync<TargetMismatchException>(() => reversed.PrepareAsync(_cancellation))).Message);
        Assert.Equal(
            $"container '{_container}' is partitioned on '/origin,/dest' (hierarchical), but Loader:Cosmos:PartitionKeyPath is '/origin': the settings must name the container's partition key paths, in order.",
            (await Assert.ThrowsAsync<TargetMismatchException>(() => single.PrepareAsync(_cancellation))).Message);
    }
}
