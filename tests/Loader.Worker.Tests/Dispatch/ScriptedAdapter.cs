using Loader.Abstractions;

namespace Loader.Worker.Tests.Dispatch;

/// <summary>
/// A test double of a backend adapter: each call to <see cref="WriteBatchAsync"/> plays the next step of a script
/// (the last step repeats), and every batch sent is kept, so a test sees exactly what the pipeline did.
/// </summary>
public sealed class ScriptedAdapter(params Func<EntityBatch, CancellationToken, Task<BatchOutcome>>[] script) : IBackendAdapter
{
    private readonly Lock _lock = new();
    private readonly List<EntityBatch> _sent = [];

    public IReadOnlyList<EntityBatch> Sent
    {
        get
        {
            lock (_lock)
            {
                return [.. _sent];
            }
        }
    }

    public string Name => "Scripted";

    public BackendLimits Limits { get; } = new(100, 4 * 1024 * 1024);

    public static Func<EntityBatch, CancellationToken, Task<BatchOutcome>> Answer(Func<EntityBatch, BatchOutcome> outcome) =>
        (batch, _) => Task.FromResult(outcome(batch));

    public static Func<EntityBatch, CancellationToken, Task<BatchOutcome>> Throw(Exception exception) =>
        (_, _) => Task.FromException<BatchOutcome>(exception);

    public static Func<EntityBatch, CancellationToken, Task<BatchOutcome>> Written { get; } =
        Answer(_ => BatchOutcome.Written(202, TimeSpan.FromMilliseconds(3), null));

    public Task PrepareAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public string? CheckPropertyName(string name) => null;

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) => new(100, null);

    public Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        int call;
        lock (_lock)
        {
            call = _sent.Count;
            _sent.Add(batch);
        }

        return script[Math.Min(call, script.Length - 1)](batch, cancellationToken);
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
