using System.Collections.Concurrent;
using Loader.Abstractions;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// A test double of a backend adapter whose service, or whose own code, quotes secrets back, as an SDK's exception quotes
/// a request URL with its signature or a key; <paramref name="quote"/> is what it says. It wraps the real adapter the
/// settings make (its limits and rules) and behaves as <see cref="Behaviour"/> says. No real service can be made to say
/// these things on cue.
/// </summary>
internal sealed class SecretQuotingAdapterDouble(IBackendAdapter rules, SecretQuotingAdapterDouble.Behaviour behaviour, string quote) : IBackendAdapter
{
    private readonly ConcurrentDictionary<string, int> _calls = new(StringComparer.Ordinal);

    public enum Behaviour
    {
        /// <summary>Refuses the first row of a partition's first batch, then fails its later batches, the service's message each time (exit 1).</summary>
        Complains,

        /// <summary>Throws from every write, an exception with an inner one (exit 1: the batch's rows fail).</summary>
        Throws,

        /// <summary>Cannot reach the service: preparing the target throws (exit 3).</summary>
        Unreachable,

        /// <summary>Throws where no adapter may, checking the header's column names (exit 10: the load fails unexpectedly).</summary>
        Crashes,
    }

    public string Name => rules.Name;

    public BackendLimits Limits => rules.Limits;

    public Task PrepareAsync(CancellationToken cancellationToken) =>
        behaviour == Behaviour.Unreachable ? throw new InvalidOperationException($"cannot connect: {quote}") : Task.CompletedTask;

    public string? CheckPropertyName(string name) =>
        behaviour == Behaviour.Crashes ? throw new InvalidOperationException($"the adapter broke: {quote}", new FormatException($"inner: {quote}"))
        : rules.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) => rules.Inspect(partitionKey, rowKey, properties);

    public Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        if (behaviour == Behaviour.Throws)
        {
            throw new InvalidOperationException($"the adapter broke: {quote}", new FormatException($"inner: {quote}"));
        }

        return Task.FromResult(_calls.AddOrUpdate(batch.PartitionKey, 1, (_, calls) => calls + 1) == 1
            ? new BatchOutcome { Status = BatchStatus.OperationsRejected, StatusCode = 400, OperationFailures = [new OperationFailure(0, 400, "InvalidInput", $"refused: {quote}")] }
            : new BatchOutcome { Status = BatchStatus.Failed, StatusCode = 403, Error = $"403 AuthorizationFailure: {quote}" });
    }

    public ValueTask DisposeAsync() => rules.DisposeAsync();
}
