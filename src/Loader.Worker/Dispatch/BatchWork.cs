using Loader.Abstractions;

namespace Loader.Worker.Dispatch;

/// <summary>
/// The rows of one batch not yet settled. Each attempt settles what the service settled (rows applied, rows
/// refused) and leaves the rest for the next attempt, so a retry never resends a row that already landed.
/// </summary>
internal sealed class BatchWork(EntityBatch batch)
{
    public EntityBatch Current { get; private set; } = batch;

    public int Remaining => Current.Entities.Count;

    /// <summary>Removes the applied and refused operations of <paramref name="outcome"/>; returns them for bookkeeping.</summary>
    public (int Applied, IReadOnlyList<(LoadEntity Entity, OperationFailure Failure)> Refused) Settle(BatchOutcome outcome)
    {
        if (outcome.Status == BatchStatus.Written)
        {
            var all = Remaining;
            Current = Current with { Entities = [] };
            return (all, []);
        }

        var entities = Current.Entities;
        var settled = new bool[entities.Count];
        var applied = 0;
        foreach (var index in outcome.AppliedOperations)
        {
            if (index >= 0 && index < entities.Count && !settled[index])
            {
                settled[index] = true;
                applied++;
            }
        }

        var refused = new List<(LoadEntity, OperationFailure)>();
        foreach (var failure in outcome.OperationFailures)
        {
            if (failure.Index >= 0 && failure.Index < entities.Count && !settled[failure.Index])
            {
                settled[failure.Index] = true;
                refused.Add((entities[failure.Index], failure));
            }
        }

        if (applied + refused.Count > 0)
        {
            var rest = new List<LoadEntity>(entities.Count - applied - refused.Count);
            for (var i = 0; i < entities.Count; i++)
            {
                if (!settled[i])
                {
                    rest.Add(entities[i]);
                }
            }

            Current = Current with { Entities = rest };
        }

        return (applied, refused);
    }
}
