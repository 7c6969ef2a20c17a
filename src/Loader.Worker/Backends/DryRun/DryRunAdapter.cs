using Loader.Abstractions;

namespace Loader.Worker.Backends.DryRun;

/// <summary>
/// Stands in for the configured backend in a dry run: the same limits and validation rules, so the input
/// is checked as the real load would check it, but nothing is sent and nothing is connected to.
/// </summary>
internal sealed class DryRunAdapter(IBackendAdapter rules) : IBackendAdapter
{
    public string Name => rules.Name;

    public BackendLimits Limits => rules.Limits;

    public Task PrepareAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public string? CheckPropertyName(string name) => rules.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        rules.Inspect(partitionKey, rowKey, properties);

    public Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken) =>
        Task.FromResult(BatchOutcome.Written(0, TimeSpan.Zero, null));

    public ValueTask DisposeAsync() => rules.DisposeAsync();
}
