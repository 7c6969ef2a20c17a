using Loader.Abstractions;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// Wraps a real adapter to watch and slow down what the pipeline sends through it: it records how many
/// batches were in flight at once and can hold chosen batches back, to provoke reordering: for a time
/// (<paramref name="delay"/>) or until a test's gate opens (<paramref name="hold"/>, which completes when the batch may go).
/// </summary>
public sealed class ObservedAdapter(IBackendAdapter inner, Func<EntityBatch, TimeSpan>? delay = null, Func<EntityBatch, CancellationToken, Task>? hold = null) : IBackendAdapter
{
    private readonly Dictionary<string, int> _inFlightByPartition = new(StringComparer.Ordinal);
    private int _inFlight;
    private int _maxInFlight;
    private int _maxInFlightOfOnePartition;
    private int _calls;

    public int MaxInFlight => Volatile.Read(ref _maxInFlight);

    /// <summary>The most batches of one partition key that were in this adapter at once (1 when a key's batches go in turn).</summary>
    public int MaxInFlightOfOnePartition => Volatile.Read(ref _maxInFlightOfOnePartition);

    public int Calls => Volatile.Read(ref _calls);

    public string Name => inner.Name;

    public BackendLimits Limits => inner.Limits;

    public Task PrepareAsync(CancellationToken cancellationToken) => inner.PrepareAsync(cancellationToken);

    public string? CheckPropertyName(string name) => inner.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        inner.Inspect(partitionKey, rowKey, properties);

    public async Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _calls);
        var now = Interlocked.Increment(ref _inFlight);
        int max;
        while (now > (max = Volatile.Read(ref _maxInFlight)) && Interlocked.CompareExchange(ref _maxInFlight, now, max) != max)
        {
        }

        lock (_inFlightByPartition)
        {
            var ofPartition = _inFlightByPartition[batch.PartitionKey] = _inFlightByPartition.GetValueOrDefault(batch.PartitionKey) + 1;
            _maxInFlightOfOnePartition = Math.Max(_maxInFlightOfOnePartition, ofPartition);
        }

        try
        {
            if (delay?.Invoke(batch) is { } wait && wait > TimeSpan.Zero)
            {
                await Task.Delay(wait, cancellationToken);
            }

            if (hold is not null)
            {
                await hold(batch, cancellationToken);
            }

            return await inner.WriteBatchAsync(batch, cancellationToken);
        }
        finally
        {
            Interlocked.Decrement(ref _inFlight);
            lock (_inFlightByPartition)
            {
                _inFlightByPartition[batch.PartitionKey]--;
            }
        }
    }

    public ValueTask DisposeAsync() => inner.DisposeAsync();
}
