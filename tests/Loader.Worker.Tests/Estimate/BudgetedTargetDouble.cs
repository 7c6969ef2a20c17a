using Loader.Abstractions;
using Loader.ThrottlingSimulator;

namespace Loader.Worker.Tests.Estimate;

/// <summary>
/// A test double of a target with a request-unit budget: the throttling simulator's own <see cref="TokenBucket"/> on the
/// test's clock, charging 5 RU a row, answering at once — written with its charge, or throttled with nothing charged.
/// It stands in for the simulator where a test drives time by hand, which a real HTTP front cannot follow.
/// </summary>
internal sealed class BudgetedTargetDouble(TokenBucket budget) : IBackendAdapter
{
    public const double UnitsPerRow = 5;

    public string Name => "Budgeted";

    public BackendLimits Limits { get; } = new(100, 4_000_000);

    public Task PrepareAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public string? CheckPropertyName(string name) => null;

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) => new(100, null);

    public Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        var charge = batch.Entities.Count * UnitsPerRow;
        if (budget.MillisecondsUntilAvailable(charge) > 0)
        {
            return Task.FromResult(new BatchOutcome { Status = BatchStatus.Throttled, StatusCode = 429, ThrottledResponses = 1, RequestCharge = 0 });
        }

        budget.Take(charge);
        return Task.FromResult(BatchOutcome.Written(202, TimeSpan.FromMilliseconds(1), charge) with { RequestBytes = batch.Entities.Count * 700L });
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    /// <summary>A batch of <paramref name="rows"/> rows of one partition.</summary>
    public static EntityBatch Batch(int rows) =>
        new("p", [.. Enumerable.Range(0, rows).Select(i => new LoadEntity("p", $"r{i}", [], default, 100))], WriteMode.Upsert);
}
