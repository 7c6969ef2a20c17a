using Loader.Abstractions;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Dispatch;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Inputs;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;

namespace Loader.Worker.Tests.Dispatch;

/// <summary>
/// Insert conflicts that may be the load's own writes, taken through <see cref="BatchWriter"/> to a real Table Storage
/// (Azurite): the batch's keys are read back, and only a row the store holds otherwise is rejected.
/// </summary>
public sealed class BatchWriterConflictTests(AzuriteFixture azurite) : IAsyncDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestMeterFactory _meters = new();
    private readonly RecordWatermark _watermark = new();
    private readonly DispatchControls _controls = new(new LoaderOptions(), TimeProvider.System);
    private readonly TestDirectory _directory = new();
    private TablesAdapter? _adapter;
    private string _table = "";

    public async ValueTask DisposeAsync()
    {
        _controls.Dispose();
        _meters.Dispose();
        _directory.Dispose();
        if (_adapter is not null)
        {
            await _adapter.DisposeAsync();
        }
    }

    private async Task<TablesAdapter> AdapterAsync()
    {
        _table = AzuriteFixture.UniqueTableName("conflict");
        var client = TableClientFactory.Create(
            new TablesOptions { ConnectionString = azurite.ConnectionString, Table = _table },
            TableClientFactory.Options(16, TimeSpan.FromSeconds(30)),
            () => throw new InvalidOperationException("no credential here"));
        _adapter = new TablesAdapter(client, createTable: true, TimeProvider.System);
        await _adapter.PrepareAsync(_cancellation);
        return _adapter;
    }

    private (BatchWriter Writer, LoadStatistics Statistics, RejectSink Rejects) Writer(IBackendAdapter adapter, ResumePoint? resume)
    {
        var statistics = new LoadStatistics(new LoaderMetrics(_meters), TimeProvider.System);
        var rejects = new RejectSink(_directory.File("rejects.csv"), 1000, statistics, NullLogger<RejectSink>.Instance, Redaction.Rule);
        var retry = new RetryOptions { MaxAttempts = 3, MaxThrottledWait = TimeSpan.Zero, BaseDelay = TimeSpan.FromMilliseconds(1), MaxDelay = TimeSpan.FromMilliseconds(2) };
        var writer = new BatchWriter(adapter, new BatchResilience(retry, statistics, TimeProvider.System), _controls, statistics, rejects, _watermark, resume, TimeProvider.System, NullLogger<BatchWriter>.Instance);
        return (writer, statistics, rejects);
    }

    /// <summary>The reasons in the rejects file.</summary>
    private async Task<List<string>> RejectedAsync(RejectSink rejects)
    {
        await rejects.FlushAsync(_cancellation);
        rejects.Dispose();
        return [.. File.ReadAllLines(_directory.File("rejects.csv")).Skip(1)];
    }

    private static LoadEntity Row(int record, int value) =>
        new("p", $"r{record}", [EntityProperty.FromInt32("n", value)], new RowOrigin(record, record + 1), 100);

    private static ReadyBatch Insert(params LoadEntity[] rows) => new(new EntityBatch("p", rows, WriteMode.Insert), 1, rows[0].Origin.Record);

    [Fact]
    public async Task After_a_resume_a_conflict_on_a_row_stored_as_it_is_counts_already_written_and_on_another_row_is_rejected_naming_what_differs()
    {
        var adapter = await AdapterAsync();
        // The earlier run wrote rows 1 to 3 after its last checkpoint; someone else since wrote row 4 otherwise; row 5 never landed.
        var earlier = new EntityBatch("p", [Row(1, 1), Row(2, 2), Row(3, 3), Row(4, 40)], WriteMode.Upsert);
        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(earlier, _cancellation)).Status);
        var resume = new ResumePoint(0, 5, new InputIdentity("input.csv", 1, "x"), new Dictionary<string, string>()) { Window = new ResumeWindow(5, 6, [[1, 5]]) };
        var (writer, statistics, rejects) = Writer(adapter, resume);
        var batch = Insert(Row(1, 1), Row(2, 2), Row(3, 3), Row(4, 4), Row(5, 5));
        _watermark.Pending([.. batch.RowRecords.Span, .. batch.SupersededRecords]);
        _watermark.Batched(5, 6);

        await writer.WriteAsync(batch, _cancellation);

        var counts = statistics.Snapshot();
        Assert.Equal((1L, 3L, 1L), (counts.RowsWritten, counts.RowsAlreadyWritten, counts.RowsRejected));
        var reason = Assert.Single(await RejectedAsync(rejects));
        Assert.Contains("refused by the service (409", reason, StringComparison.Ordinal);
        Assert.Contains("the stored entity is not this row: it differs in 'n'", reason, StringComparison.Ordinal);
        var stored = await azurite.ReadTableAsync(_table, _cancellation);
        Assert.Equal(40, stored[("p", "r4")].Properties["n"]); // Insert leaves what someone else wrote
        Assert.Equal(5, stored[("p", "r5")].Properties["n"]);
        Assert.Equal(6, _watermark.Current);
    }

    [Fact]
    public async Task A_request_that_landed_without_an_answer_counts_the_retrys_conflicts_as_already_written()
    {
        var adapter = await AdapterAsync();
        var (writer, statistics, rejects) = Writer(new LandsWithoutAnswer(adapter), resume: null);
        var batch = Insert(Row(1, 1), Row(2, 2), Row(3, 3));
        _watermark.Pending([.. batch.RowRecords.Span, .. batch.SupersededRecords]);
        _watermark.Batched(3, 4);

        await writer.WriteAsync(batch, _cancellation);

        var counts = statistics.Snapshot();
        Assert.Empty(await RejectedAsync(rejects));
        Assert.Equal((0L, 3L, 0L, 0L), (counts.RowsWritten, counts.RowsAlreadyWritten, counts.RowsRejected, counts.RowsFailed));
        Assert.Equal(4, _watermark.Current);
    }

    /// <summary>A test double around the real adapter: its first request is applied by the store, but its answer never comes back (a timeout after the write landed).</summary>
    private sealed class LandsWithoutAnswer(TablesAdapter inner) : IBackendAdapter, IStoredEntityComparison
    {
        private int _calls;

        public string Name => inner.Name;

        public BackendLimits Limits => inner.Limits;

        public Task PrepareAsync(CancellationToken cancellationToken) => inner.PrepareAsync(cancellationToken);

        public string? CheckPropertyName(string name) => inner.CheckPropertyName(name);

        public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) => inner.Inspect(partitionKey, rowKey, properties);

        public async Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
        {
            var outcome = await inner.WriteBatchAsync(batch, cancellationToken);
            return Interlocked.Increment(ref _calls) == 1 ? throw new TimeoutException("The operation has timed out.") : outcome;
        }

        public Task<StoredComparison> CompareStoredAsync(EntityBatch batch, CancellationToken cancellationToken) => inner.CompareStoredAsync(batch, cancellationToken);

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
