using Loader.Abstractions;

namespace Loader.Worker.Verify;

/// <summary>
/// What a verify has found so far: every row counted once by what became of it, entities no row accounts for, and the
/// first <c>examples</c> of each kind of finding, by key order (so a report says the same whatever order the partitions
/// were checked in). Thread-safe: partitions are checked in parallel.
/// </summary>
internal sealed class VerifyTally(int examples)
{
    private readonly Lock _lock = new();
    private readonly Dictionary<FindingKind, List<VerifyExample>> _examples = Enum.GetValues<FindingKind>().ToDictionary(kind => kind, _ => new List<VerifyExample>());
    private readonly Dictionary<FindingKind, long> _found = Enum.GetValues<FindingKind>().ToDictionary(kind => kind, _ => 0L);
    private long _read;
    private long _matching;
    private long _superseded;
    private long _rejected;
    private long _partitions;
    private long _passes;
    private long _entitiesRead;

    public void RowsRead(long rows) => Interlocked.Add(ref _read, rows);

    /// <summary>Rows the load cannot have written: malformed, or not mappable (the load rejected them the same way).</summary>
    public void Unmappable(long rows) => Interlocked.Add(ref _rejected, rows);

    /// <summary>A pass over a partition began; <paramref name="first"/> when it is the partition's first.</summary>
    public void Pass(bool first)
    {
        Interlocked.Increment(ref _passes);
        if (first)
        {
            Interlocked.Increment(ref _partitions);
        }
    }

    public void EntitiesRead(long entities) => Interlocked.Add(ref _entitiesRead, entities);

    public void Add(KeyVerdict verdict)
    {
        Interlocked.Add(ref _superseded, verdict.Superseded);
        Interlocked.Add(ref _rejected, verdict.Rejected);
        if (verdict.Expected is not { } expected)
        {
            return;
        }

        if (verdict.Finding is not { } kind)
        {
            Interlocked.Increment(ref _matching);
            return;
        }

        Found(kind, VerifyExample.Of(expected, verdict.Difference, verdict.StoredRow));
    }

    /// <summary>An entity of the input's partitions that no row names (counted only with <c>--extra</c>).</summary>
    public void Extra(string partitionKey, string rowKey) =>
        Found(FindingKind.Extra, new VerifyExample(PartitionKeyLevels.Display(partitionKey), rowKey));

    private void Found(FindingKind kind, VerifyExample example)
    {
        lock (_lock)
        {
            _found[kind]++;
            var list = _examples[kind];
            if (list.Count < examples || VerifyExample.ByKey.Compare(example, list[^1]) < 0)
            {
                var at = list.BinarySearch(example, VerifyExample.ByKey);
                list.Insert(at < 0 ? ~at : at, example);
                if (list.Count > examples)
                {
                    list.RemoveAt(list.Count - 1);
                }
            }
        }
    }

    public VerifyCounts Snapshot()
    {
        lock (_lock)
        {
            return new VerifyCounts(
                Interlocked.Read(ref _read),
                Interlocked.Read(ref _matching),
                Interlocked.Read(ref _superseded),
                Interlocked.Read(ref _rejected),
                _found[FindingKind.Missing],
                _found[FindingKind.Different],
                _found[FindingKind.DuplicateNotWon],
                _found[FindingKind.NotDeleted],
                _found[FindingKind.Extra],
                Interlocked.Read(ref _partitions),
                Interlocked.Read(ref _passes),
                Interlocked.Read(ref _entitiesRead));
        }
    }

    public VerifyExamples Examples()
    {
        lock (_lock)
        {
            return new VerifyExamples(
                [.. _examples[FindingKind.Missing]],
                [.. _examples[FindingKind.Different]],
                [.. _examples[FindingKind.DuplicateNotWon]],
                [.. _examples[FindingKind.NotDeleted]],
                [.. _examples[FindingKind.Extra]]);
        }
    }
}

/// <summary>A verify's counts: every row read is matching, superseded, rejected, missing, different, a duplicate that did not win, not deleted, or (until checked) none yet.</summary>
internal sealed record VerifyCounts(
    long RowsRead,
    long RowsMatching,
    long RowsSuperseded,
    long RowsRejected,
    long RowsMissing,
    long RowsDifferent,
    long RowsDuplicateNotWon,
    long RowsNotDeleted,
    long ExtraEntities,
    long Partitions,
    long PartitionPasses,
    long EntitiesRead)
{
    /// <summary>Rows read that no check has settled: a verify that stopped, or could not read a partition, leaves some.</summary>
    public long RowsUnchecked => RowsRead - RowsMatching - RowsSuperseded - RowsRejected - RowsMissing - RowsDifferent - RowsDuplicateNotWon - RowsNotDeleted;

    /// <summary>Whether anything is wrong with the target, extras included (they are counted only when asked for).</summary>
    public bool TargetDiffers => RowsMissing + RowsDifferent + RowsDuplicateNotWon + RowsNotDeleted + ExtraEntities > 0;
}
