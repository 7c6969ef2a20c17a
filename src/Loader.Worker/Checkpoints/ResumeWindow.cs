namespace Loader.Worker.Checkpoints;

/// <summary>
/// The records after the watermark that an earlier run had read: all settled but those still in batches when its
/// checkpoint was written. A restart reads them again and sends only the pending ones; records after
/// <see cref="ReadUpTo"/> it sends as any. Thread-safe (read only): records are mapped on several threads.
/// </summary>
/// <param name="ReadUpTo">The highest record the earlier run had read and passed into batches.</param>
/// <param name="ReadUpToLine">The line on which that record starts: the earlier run's rejects up to it stay in the rejects file.</param>
/// <param name="Pending">The records up to <paramref name="ReadUpTo"/> that were still in batches, as sorted [first, last] ranges.</param>
internal sealed record ResumeWindow(long ReadUpTo, long ReadUpToLine, IReadOnlyList<long[]> Pending)
{
    /// <summary>Whether the earlier run settled <paramref name="record"/> (a well-formed record's number).</summary>
    public bool Settled(long record)
    {
        if (record > ReadUpTo)
        {
            return false;
        }

        // The last range starting at or before the record.
        int low = 0, high = Pending.Count - 1;
        while (low <= high)
        {
            var middle = (low + high) / 2;
            if (Pending[middle][0] <= record)
            {
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }

        return high < 0 || Pending[high][1] < record;
    }

    /// <summary>Whether the earlier run met a malformed record found after <paramref name="goodRecordsBefore"/> well-formed ones: rejected then, not again.</summary>
    public bool SettledMalformed(long goodRecordsBefore) => goodRecordsBefore < ReadUpTo;
}
