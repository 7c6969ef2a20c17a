using Loader.Abstractions;
using Loader.Worker.Batching;

namespace Loader.Worker.Verify;

/// <summary>
/// What the store should hold under one key of the input, and whether it does. Rows the rejects file lists are expected
/// absent and take no part. Of the others, the one the write mode makes stand: the last under Upsert and Replace, the
/// first under Insert (the later ones are conflicts), all of them folded in order under Merge (later values win, and the
/// store may keep properties no row names), none under Delete (the key must be gone). When the store holds another row
/// of the key instead, it is a duplicate that did not win, not merely a difference.
/// </summary>
internal static class KeyCheck
{
    /// <param name="rows">The key's rows, in input order.</param>
    /// <param name="stored">What the store holds under the key; null for nothing.</param>
    /// <param name="mode">The load's write mode.</param>
    public static KeyVerdict Of(IReadOnlyList<VerifyRow> rows, IStoredEntity? stored, WriteMode mode)
    {
        var accounted = rows.Where(row => !row.Rejected).ToList();
        var rejected = rows.Count - accounted.Count;
        if (accounted.Count == 0)
        {
            return new KeyVerdict(null, null, 0, rejected);
        }

        var superseded = accounted.Count - 1;
        if (mode == WriteMode.Delete)
        {
            return new KeyVerdict(stored is null ? null : FindingKind.NotDeleted, accounted[^1], superseded, rejected);
        }

        var merge = mode == WriteMode.Merge;
        var expected = mode == WriteMode.Insert ? accounted[0] : accounted[^1];
        if (stored is null)
        {
            return new KeyVerdict(FindingKind.Missing, expected, superseded, rejected);
        }

        var difference = stored.Compare(merge ? Fold(accounted, accounted.Count) : expected.Entity, merge);
        if (difference is null)
        {
            return new KeyVerdict(null, expected, superseded, rejected);
        }

        foreach (var (other, entity) in Others(accounted, mode))
        {
            if (stored.Compare(entity, merge) is null)
            {
                return new KeyVerdict(FindingKind.DuplicateNotWon, expected, superseded, rejected, difference, other);
            }
        }

        return new KeyVerdict(FindingKind.Different, expected, superseded, rejected, difference);
    }

    /// <summary>What the store would hold had another of the key's rows won: each other row, or under Merge each earlier state of the fold.</summary>
    private static IEnumerable<(VerifyRow Row, LoadEntity Entity)> Others(List<VerifyRow> accounted, WriteMode mode) => mode switch
    {
        WriteMode.Insert => accounted.Skip(1).Select(row => (row, row.Entity)),
        WriteMode.Merge => accounted.Take(accounted.Count - 1).Select((row, i) => (row, Fold(accounted, i + 1))),
        _ => accounted.Take(accounted.Count - 1).Select(row => (row, row.Entity)),
    };

    /// <summary>The first <paramref name="count"/> rows merged in order, as the load merges a repeated key.</summary>
    private static LoadEntity Fold(List<VerifyRow> rows, int count)
    {
        var folded = rows[0].Entity;
        for (var i = 1; i < count; i++)
        {
            folded = PartitionBatcher.Merge(folded, rows[i].Entity);
        }

        return folded;
    }
}

/// <summary>What verify concluded for one key.</summary>
/// <param name="Finding">What is wrong; null when the store holds what it should.</param>
/// <param name="Expected">The row that should stand (under Delete, the last delete); null when every row of the key was rejected.</param>
/// <param name="Superseded">Rows of the key beside the one that should stand: replaced, folded in, or conflicts under Insert.</param>
/// <param name="Rejected">Rows of the key the rejects file lists.</param>
/// <param name="Difference">Where the stored entity differs from the row that should stand.</param>
/// <param name="StoredRow">For a duplicate that did not win: the row the store holds instead.</param>
internal sealed record KeyVerdict(FindingKind? Finding, VerifyRow? Expected, int Superseded, int Rejected, PropertyDifference? Difference = null, VerifyRow? StoredRow = null);
