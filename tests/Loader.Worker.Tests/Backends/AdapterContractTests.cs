using Loader.Abstractions;

namespace Loader.Worker.Tests.Backends;

/// <summary>
/// What every backend adapter must do, whatever the store: one suite, run by each backend's subclass against
/// the real thing where it can run (Tables on Azurite, Cosmos DB on a live endpoint when one is configured).
/// </summary>
public abstract class AdapterContractTests
{
    protected CancellationToken Cancellation { get; } = TestContext.Current.CancellationToken;

    /// <summary>An adapter on a fresh, prepared target (table or container).</summary>
    protected abstract Task<IBackendAdapter> CreateAdapterAsync();

    /// <summary>The stored properties of an entity (keys excluded), or null when it is not there.</summary>
    protected abstract Task<IReadOnlyDictionary<string, object>?> ReadBackAsync(IBackendAdapter adapter, string partitionKey, string rowKey);

    /// <summary>An adapter on a target that throttles at once, or null when this backend cannot be made to throttle here.</summary>
    protected abstract Task<IBackendAdapter?> CreateThrottlingAdapterAsync();

    protected static LoadEntity Entity(IBackendAdapter adapter, string partitionKey, string rowKey, params EntityProperty[] properties)
    {
        var inspection = adapter.Inspect(partitionKey, rowKey, properties);
        Assert.True(inspection.IsValid, inspection.Violation);
        return new LoadEntity(partitionKey, rowKey, properties, new RowOrigin(1, 2), inspection.PayloadBytes);
    }

    protected static EntityBatch Batch(WriteMode mode, params LoadEntity[] entities) => new(entities[0].PartitionKey, entities, mode);

    [Fact]
    public async Task A_batch_lands_and_reads_back_with_its_types()
    {
        await using var adapter = await CreateAdapterAsync();
        var when = new DateTime(2024, 5, 6, 7, 8, 9, DateTimeKind.Utc);
        var batch = Batch(
            WriteMode.Upsert,
            Entity(adapter, "p1", "a", EntityProperty.FromString("s", "Zürich, ✈"), EntityProperty.FromInt32("n", 42), EntityProperty.FromDouble("d", 2.5)),
            Entity(adapter, "p1", "b", EntityProperty.FromBoolean("f", true), EntityProperty.FromInt64("big", 9_000_000_000L), EntityProperty.FromDateTime("t", when)));

        var outcome = await adapter.WriteBatchAsync(batch, Cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        Assert.True(outcome.Latency > TimeSpan.Zero);
        var a = await ReadBackAsync(adapter, "p1", "a");
        Assert.Equal("Zürich, ✈", a?["s"]);
        Assert.Equal(42L, Convert.ToInt64(a?["n"], System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(2.5, Convert.ToDouble(a?["d"], System.Globalization.CultureInfo.InvariantCulture));
        var b = await ReadBackAsync(adapter, "p1", "b");
        Assert.Equal(true, b?["f"]);
        Assert.Equal(9_000_000_000L, Convert.ToInt64(b?["big"], System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(when, Convert.ToDateTime(b?["t"], System.Globalization.CultureInfo.InvariantCulture).ToUniversalTime());
    }

    [Fact]
    public async Task Rewriting_under_upsert_is_idempotent()
    {
        await using var adapter = await CreateAdapterAsync();
        var batch = Batch(WriteMode.Upsert, Entity(adapter, "p", "k", EntityProperty.FromString("v", "one")));

        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(batch, Cancellation)).Status);
        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(batch, Cancellation)).Status);

        var stored = await ReadBackAsync(adapter, "p", "k");
        Assert.Equal("one", stored?["v"]);
    }

    [Fact]
    public async Task Insert_of_an_existing_key_is_a_conflict_for_that_row_only()
    {
        await using var adapter = await CreateAdapterAsync();
        await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "p", "taken", EntityProperty.FromString("v", "first"))), Cancellation);

        var outcome = await adapter.WriteBatchAsync(
            Batch(
                WriteMode.Insert,
                Entity(adapter, "p", "new1", EntityProperty.FromString("v", "x")),
                Entity(adapter, "p", "taken", EntityProperty.FromString("v", "second")),
                Entity(adapter, "p", "new2", EntityProperty.FromString("v", "y"))),
            Cancellation);

        Assert.Equal(BatchStatus.OperationsRejected, outcome.Status);
        var failure = Assert.Single(outcome.OperationFailures);
        Assert.Equal(1, failure.Index);
        Assert.Equal(409, failure.StatusCode);
        Assert.Equal("first", (await ReadBackAsync(adapter, "p", "taken"))?["v"]);
    }

    [Fact]
    public async Task Merge_lays_the_rows_properties_over_the_stored_ones_keeps_the_rest_and_inserts_the_missing()
    {
        await using var adapter = await CreateAdapterAsync();
        await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "p", "k", EntityProperty.FromString("a", "a1"), EntityProperty.FromString("b", "b1"))), Cancellation);

        var outcome = await adapter.WriteBatchAsync(
            Batch(
                WriteMode.Merge,
                Entity(adapter, "p", "k", EntityProperty.FromString("b", "b2"), EntityProperty.FromInt32("c", 3)),
                Entity(adapter, "p", "new", EntityProperty.FromString("c", "x"))),
            Cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        var merged = await ReadBackAsync(adapter, "p", "k");
        Assert.Equal(("a1", "b2", 3L), (merged?["a"], merged?["b"], Convert.ToInt64(merged?["c"], System.Globalization.CultureInfo.InvariantCulture)));
        Assert.Equal("x", (await ReadBackAsync(adapter, "p", "new"))?["c"]);
    }

    [Fact]
    public async Task Delete_removes_the_stored_entities_whatever_the_row_carries_besides_its_keys()
    {
        await using var adapter = await CreateAdapterAsync();
        await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "p", "a", EntityProperty.FromString("v", "1")), Entity(adapter, "p", "b", EntityProperty.FromString("v", "2")), Entity(adapter, "p", "kept", EntityProperty.FromString("v", "3"))), Cancellation);

        var outcome = await adapter.WriteBatchAsync(Batch(WriteMode.Delete, Entity(adapter, "p", "a"), Entity(adapter, "p", "b", EntityProperty.FromString("v", "ignored"))), Cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        Assert.Null(await ReadBackAsync(adapter, "p", "a"));
        Assert.Null(await ReadBackAsync(adapter, "p", "b"));
        Assert.Equal("3", (await ReadBackAsync(adapter, "p", "kept"))?["v"]);
    }

    [Fact]
    public async Task Delete_of_a_missing_entity_is_a_404_for_that_row_only_and_the_rest_goes_again()
    {
        await using var adapter = await CreateAdapterAsync();
        await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "p", "a", EntityProperty.FromString("v", "1")), Entity(adapter, "p", "c", EntityProperty.FromString("v", "3"))), Cancellation);
        var rows = new[] { Entity(adapter, "p", "a"), Entity(adapter, "p", "missing"), Entity(adapter, "p", "c") };

        var outcome = await adapter.WriteBatchAsync(Batch(WriteMode.Delete, rows), Cancellation);

        Assert.Equal(BatchStatus.OperationsRejected, outcome.Status);
        var failure = Assert.Single(outcome.OperationFailures);
        Assert.Equal((1, 404), (failure.Index, failure.StatusCode));
        var again = rows.Where((_, i) => i != 1 && !outcome.AppliedOperations.Contains(i)).ToArray();
        if (again.Length > 0)
        {
            Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(Batch(WriteMode.Delete, again), Cancellation)).Status);
        }

        Assert.Null(await ReadBackAsync(adapter, "p", "a"));
        Assert.Null(await ReadBackAsync(adapter, "p", "c"));
    }

    [Fact]
    public async Task Replace_swaps_the_stored_entity_for_the_row_and_a_missing_one_is_a_404_for_that_row_only()
    {
        await using var adapter = await CreateAdapterAsync();
        await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "p", "k", EntityProperty.FromString("a", "a1"), EntityProperty.FromString("b", "b1"))), Cancellation);

        var missing = await adapter.WriteBatchAsync(Batch(WriteMode.Replace, Entity(adapter, "p", "k", EntityProperty.FromString("b", "b2")), Entity(adapter, "p", "missing", EntityProperty.FromString("b", "x"))), Cancellation);
        var replaced = await adapter.WriteBatchAsync(Batch(WriteMode.Replace, Entity(adapter, "p", "k", EntityProperty.FromString("b", "b2"))), Cancellation);

        Assert.Equal(BatchStatus.OperationsRejected, missing.Status);
        var failure = Assert.Single(missing.OperationFailures);
        Assert.Equal((1, 404), (failure.Index, failure.StatusCode));
        Assert.Null(await ReadBackAsync(adapter, "p", "missing"));
        Assert.Equal(BatchStatus.Written, replaced.Status);
        var stored = await ReadBackAsync(adapter, "p", "k");
        Assert.Equal("b2", stored?["b"]);
        Assert.False(stored!.ContainsKey("a"), "Replace keeps none of the stored properties the row does not carry");
    }

    [Fact]
    public async Task An_oversize_entity_is_rejected_with_a_reason_before_it_is_sent()
    {
        await using var adapter = await CreateAdapterAsync();

        var inspection = adapter.Inspect("p", "k", [EntityProperty.FromString("huge", new string('x', 3 * 1024 * 1024))]);

        Assert.False(inspection.IsValid);
        Assert.Contains("'huge'", inspection.Violation, StringComparison.Ordinal);
        Assert.Matches("(larger|longer|more) than", inspection.Violation);
    }

    [Fact]
    public async Task Stored_entities_compare_equal_to_the_rows_that_wrote_them_with_every_type()
    {
        await using var adapter = await CreateAdapterAsync();
        var rows = Batch(
            WriteMode.Insert,
            Entity(
                adapter,
                "p",
                "a",
                EntityProperty.FromString("s", "Zürich, ✈"),
                EntityProperty.FromInt32("n", -42),
                EntityProperty.FromInt64("big", 9_000_000_000L),
                EntityProperty.FromDouble("d", 2.5),
                EntityProperty.FromDouble("whole", 3.0),
                EntityProperty.FromBoolean("f", false),
                EntityProperty.FromDateTime("t", new DateTime(2024, 5, 6, 7, 8, 9, 123, DateTimeKind.Utc)),
                EntityProperty.FromGuid("g", Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"))),
            Entity(adapter, "p", "b", EntityProperty.FromString("s", "b")));
        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(rows, Cancellation)).Status);

        var comparison = await Comparing(adapter).CompareStoredAsync(rows, Cancellation);

        Assert.Equal(BatchStatus.Written, comparison.Outcome.Status);
        Assert.Equal([StoredState.Equal, StoredState.Equal], comparison.Entities);
    }

    [Fact]
    public async Task A_stored_entity_with_other_values_or_properties_differs_naming_them_and_a_missing_one_is_missing()
    {
        await using var adapter = await CreateAdapterAsync();
        var stored = Batch(
            WriteMode.Upsert,
            Entity(adapter, "p", "value", EntityProperty.FromString("v", "one"), EntityProperty.FromInt32("n", 1)),
            Entity(adapter, "p", "fewer", EntityProperty.FromString("v", "one")),
            Entity(adapter, "p", "more", EntityProperty.FromString("v", "one"), EntityProperty.FromString("extra", "x")));
        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(stored, Cancellation)).Status);

        var comparison = await Comparing(adapter).CompareStoredAsync(
            Batch(
                WriteMode.Insert,
                Entity(adapter, "p", "value", EntityProperty.FromString("v", "two"), EntityProperty.FromInt32("n", 1)),
                Entity(adapter, "p", "fewer", EntityProperty.FromString("v", "one"), EntityProperty.FromInt32("n", 2)),
                Entity(adapter, "p", "more", EntityProperty.FromString("v", "one")),
                Entity(adapter, "p", "absent", EntityProperty.FromString("v", "one"))),
            Cancellation);

        Assert.Equal(BatchStatus.Written, comparison.Outcome.Status);
        Assert.Equal(
            [new StoredState(StoredMatch.Different, "it differs in 'v'"), new StoredState(StoredMatch.Different, "it differs in 'n'"), new StoredState(StoredMatch.Different, "it differs in 'extra'"), StoredState.Missing],
            comparison.Entities);
    }

    /// <summary>The adapter's read-back: every adapter of a store has one.</summary>
    protected static IStoredEntityComparison Comparing(IBackendAdapter adapter) =>
        Assert.IsAssignableFrom<IStoredEntityComparison>(adapter);

    [Fact]
    public async Task Throttling_surfaces_as_throttled_with_its_retry_after()
    {
        await using var adapter = await CreateThrottlingAdapterAsync();
        if (adapter is null)
        {
            Assert.Skip("this backend cannot be made to throttle here");
        }

        BatchOutcome? throttled = null;
        for (var i = 0; i < 50 && throttled is null; i++)
        {
            var outcome = await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "p", $"k{i}", EntityProperty.FromString("v", new string('x', 2000)))), Cancellation);
            if (outcome.Status == BatchStatus.Throttled)
            {
                throttled = outcome;
            }
        }

        Assert.NotNull(throttled);
        Assert.Equal(1, throttled.ThrottledResponses);
        Assert.True(throttled.RetryAfter > TimeSpan.Zero, "the service's retry-after must reach the pipeline");
    }
}
