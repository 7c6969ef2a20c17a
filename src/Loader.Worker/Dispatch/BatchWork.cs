using Loader.Abstractions;
using Loader.Worker.Batching;

namespace Loader.Worker.Dispatch;

/// <summary>
/// The rows of one batch not yet settled. Each attempt settles what the service settled — rows applied, rows
/// refused — and leaves the rest for the next attempt, so a retry never resends a row that already landed.
/// A row that replaced an earlier one with the same keys carries it along: when the row lands the earlier one
/// counts as superseded; when the service refuses the row, the earlier one takes its place, as if the two had
/// been sent one after the other.
/// </summary>
internal sealed class BatchWork(ReadyBatch ready)
{
    private static readonly Dictionary<LoadEntity, LoadEntity> s_noneSuperseded = [];

    private readonly IReadOnlyDictionary<LoadEntity, LoadEntity> _superseded = ready.Superseded ?? s_noneSuperseded;

    // From the records the batcher kept beside the rows: walking the entities here would touch every row again on
    // another thread, long after it left the cache. Found from the entities once an answer settled some of them.
    private long? _highestRecord = ReadyBatch.Highest(ready.RowRecords.Span);

    public EntityBatch Current
    {
        get;
        private set
        {
            field = value;
            _highestRecord = null;
        }
    } = ready.Batch;

    public int Remaining => Current.Entities.Count;

    /// <summary>Removes what <paramref name="outcome"/> settled; the caller counts and rejects it.</summary>
    public Settlement Settle(BatchOutcome outcome)
    {
        var entities = Current.Entities;
        if (outcome.Status == BatchStatus.Written)
        {
            Current = Current with { Entities = [] };
            return new Settlement(entities.Count, _superseded.Count == 0 ? 0 : entities.Sum(ChainLength), []);
        }

        var applied = new bool[entities.Count];
        int appliedCount = 0, superseded = 0;
        foreach (var index in outcome.AppliedOperations)
        {
            if (index >= 0 && index < entities.Count && !applied[index])
            {
                applied[index] = true;
                appliedCount++;
                superseded += ChainLength(entities[index]);
            }
        }

        var refused = new Dictionary<int, OperationFailure>();
        foreach (var failure in outcome.OperationFailures)
        {
            if (failure.Index >= 0 && failure.Index < entities.Count && !applied[failure.Index])
            {
                refused.TryAdd(failure.Index, failure);
            }
        }

        if (appliedCount + refused.Count == 0)
        {
            return new Settlement(0, 0, []);
        }

        var rest = new List<LoadEntity>(entities.Count);
        var rejected = new List<(LoadEntity, OperationFailure)>(refused.Count);
        for (var i = 0; i < entities.Count; i++)
        {
            if (applied[i])
            {
                continue;
            }

            if (refused.TryGetValue(i, out var failure))
            {
                rejected.Add((entities[i], failure));
                if (_superseded.TryGetValue(entities[i], out var earlier))
                {
                    rest.Add(earlier); // the row it replaced is sent again in its place
                }
            }
            else
            {
                rest.Add(entities[i]);
            }
        }

        Current = Current with { Entities = rest };
        return new Settlement(appliedCount, superseded, rejected);
    }

    /// <summary>Whether an attempt ended without telling whether its rows were applied (a timeout, a reset, a 5xx).</summary>
    public bool MayHaveLanded { get; set; }

    /// <summary>Rows the service refused as conflicts that may be an earlier write of the same load: compared with what the store holds before they are counted.</summary>
    public List<(LoadEntity Entity, OperationFailure Failure)> Conflicts { get; } = [];

    /// <summary>Takes rows the store already holds as they are out of those still to send.</summary>
    public void Stored(IReadOnlySet<LoadEntity> stored) =>
        Current = Current with { Entities = [.. Current.Entities.Where(entity => !stored.Contains(entity))] };

    /// <summary>Puts a row refused as a conflict back among those to send: the store turned out not to hold it.</summary>
    public void SendAgain(LoadEntity entity) => Current = Current with { Entities = [.. Current.Entities, entity] };

    /// <summary>The highest record among the rows still to send.</summary>
    public long HighestRecord => _highestRecord ??= Current.Entities.Aggregate(0L, (highest, entity) => Math.Max(highest, entity.Origin.Record));

    /// <summary>Rows that are not written when the remaining entities fail: each entity and the rows it replaced, and the conflicts not yet compared.</summary>
    public int RemainingRows => Current.Entities.Sum(entity => 1 + ChainLength(entity)) + Conflicts.Count;

    private int ChainLength(LoadEntity entity)
    {
        var length = 0;
        while (_superseded.TryGetValue(entity, out var earlier))
        {
            length++;
            entity = earlier;
        }

        return length;
    }
}

/// <summary>What one answer settled: rows applied, rows they superseded, rows refused with the service's reason.</summary>
internal sealed record Settlement(int Applied, int Superseded, IReadOnlyList<(LoadEntity Entity, OperationFailure Failure)> Refused);
