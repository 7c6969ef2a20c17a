using Loader.Abstractions;

namespace Loader.Worker.Tests.Pipeline;

/// <summary>
/// A test double of a backend adapter whose <see cref="IBackendAdapter.Inspect"/> breaks — a defect no real adapter can be
/// made to show on cue — on the thread <paramref name="breaksOn"/> picks, after <paramref name="healthyCalls"/> calls there.
/// Everything else is the wrapped adapter's.
/// </summary>
internal sealed class InspectFailingAdapterDouble(IBackendAdapter adapter, Func<Thread, bool> breaksOn, int healthyCalls) : IBackendAdapter
{
    private int _calls;

    public string Name => adapter.Name;

    public BackendLimits Limits => adapter.Limits;

    public Task PrepareAsync(CancellationToken cancellationToken) => adapter.PrepareAsync(cancellationToken);

    public string? CheckPropertyName(string name) => adapter.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        breaksOn(Thread.CurrentThread) && Interlocked.Increment(ref _calls) > healthyCalls
            ? throw new InvalidOperationException("the adapter's inspection broke")
            : adapter.Inspect(partitionKey, rowKey, properties);

    public Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken) => adapter.WriteBatchAsync(batch, cancellationToken);

    public ValueTask DisposeAsync() => adapter.DisposeAsync();
}
