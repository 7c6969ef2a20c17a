using System.Net;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Backends.Cosmos.Doubles;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>
/// What the stand-in cannot make happen, on a TEST DOUBLE of the SDK's <see cref="Container"/>: an item changed
/// between Merge's read and its write, and the SDK throwing (403, 503, 408, 429 as exceptions). Everything else
/// the adapter does is tested through the real SDK against the stand-in (<see cref="CosmosAdapterTests"/>,
/// <see cref="CosmosContractTests"/>). The rules checked before sending need no service at all.
/// </summary>
public sealed class CosmosAdapterOnDoubleTests
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly ContainerDouble _container = new();

    private CosmosAdapter Adapter(CosmosWriteMethod mode = CosmosWriteMethod.TransactionalBatch) =>
        new(_container, new CosmosOptions { Database = "db", Container = "c", Mode = mode }, TimeProvider.System, _ => Task.CompletedTask);

    private static LoadEntity Entity(CosmosAdapter adapter, string partitionKey, string id, params EntityProperty[] properties)
    {
        var inspection = adapter.Inspect(partitionKey, id, properties);
        Assert.True(inspection.IsValid, inspection.Violation);
        return new LoadEntity(partitionKey, id, properties, new RowOrigin(1, 2), inspection.PayloadBytes);
    }

    [Fact]
    public async Task A_merge_that_loses_a_race_is_retried_not_rejected()
    {
        var adapter = Adapter();
        _container.Seed("p", "k", """{"id":"k","pk":"p","a":"a1"}""");
        _container.Script = call => call.Transaction is { } t ? TransactionalBatchResponseDouble.Failed(t.Operations.Count, 0, HttpStatusCode.PreconditionFailed, 1, "etag mismatch") : null;

        // Eleven properties: more than a patch takes, so the item is replaced under the ETag read, which the double says changed.
        var properties = Enumerable.Range(0, 11).Select(i => EntityProperty.FromString($"a{i}", "a2")).ToArray();

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "k", properties)], WriteMode.Merge), _cancellation);

        Assert.Equal(BatchStatus.Transient, outcome.Status);
        Assert.Empty(outcome.OperationFailures);
    }

    [Theory]
    [InlineData(HttpStatusCode.Forbidden, BatchStatus.Failed)]
    [InlineData(HttpStatusCode.ServiceUnavailable, BatchStatus.Transient)]
    [InlineData(HttpStatusCode.RequestTimeout, BatchStatus.Transient)]
    [InlineData((HttpStatusCode)429, BatchStatus.Throttled)]
    public async Task Exceptions_from_the_sdk_are_classified(HttpStatusCode status, BatchStatus expected)
    {
        var adapter = Adapter();
        _container.Script = _ => throw new CosmosException("the service said no\n{diagnostics}", status, 0, "activity", 1.5);

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "a")], WriteMode.Upsert), _cancellation);

        Assert.Equal(expected, outcome.Status);
        Assert.DoesNotContain("diagnostics", outcome.Error, StringComparison.Ordinal);
    }

    /// <summary>The SDK's shapes of no answer (its own timeout, a reset connection) become a transient outcome, as the other adapter's do.</summary>
    [Theory]
    [InlineData("timeout", nameof(CosmosWriteMethod.TransactionalBatch))]
    [InlineData("reset", nameof(CosmosWriteMethod.TransactionalBatch))]
    [InlineData("timeout", nameof(CosmosWriteMethod.Bulk))]
    [InlineData("reset", nameof(CosmosWriteMethod.Bulk))]
    public async Task No_answer_from_the_sdk_is_a_transient_outcome_not_an_exception(string shape, string modeName)
    {
        var adapter = Adapter(Enum.Parse<CosmosWriteMethod>(modeName));
        _container.Script = _ => throw (shape == "timeout"
            ? new OperationCanceledException("The operation was canceled.")
            : new IOException("Connection reset by peer", new System.Net.Sockets.SocketException((int)System.Net.Sockets.SocketError.ConnectionReset)));

        var batch = new EntityBatch("p", [Entity(adapter, "p", "a")], WriteMode.Upsert);
        var outcome = await adapter.WriteBatchAsync(batch, _cancellation);
        var comparison = await adapter.CompareStoredAsync(batch, _cancellation);

        Assert.Equal((BatchStatus.Transient, BatchStatus.Transient), (outcome.Status, comparison.Outcome.Status));
        Assert.StartsWith("no answer from the service: ", outcome.Error, StringComparison.Ordinal);
        Assert.Empty(comparison.Entities);
    }

    [Fact]
    public async Task A_stop_the_caller_asked_for_is_left_to_the_caller()
    {
        var adapter = Adapter();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(_cancellation);
        _container.Script = _ =>
        {
            stop.Cancel();
            throw new OperationCanceledException(stop.Token);
        };

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "a")], WriteMode.Upsert), stop.Token));
    }

    [Theory]
    [InlineData("a/b", "contains '/'")]
    [InlineData("a#b", "contains '#'")]
    [InlineData("", "row key (the item id) is empty")]
    public void Ids_the_service_refuses_are_rejected_before_sending(string id, string reason)
    {
        Assert.Contains(reason, Adapter().Inspect("p", id, []).Violation, StringComparison.Ordinal);
    }

    [Fact]
    public void Ids_over_255_characters_partition_keys_over_2_KiB_and_nan_are_rejected()
    {
        var adapter = Adapter();

        Assert.Contains("longer than 255", adapter.Inspect("p", new string('i', 256), []).Violation, StringComparison.Ordinal);
        Assert.Contains("longer than 2,048 bytes", adapter.Inspect(new string('é', 1100), "i", []).Violation, StringComparison.Ordinal);
        Assert.Contains("column 'x': NaN cannot be stored", adapter.Inspect("p", "i", [EntityProperty.FromDouble("x", double.NaN)]).Violation, StringComparison.Ordinal);
        Assert.True(adapter.Inspect("p", new string('i', 255), []).IsValid);
    }
}
