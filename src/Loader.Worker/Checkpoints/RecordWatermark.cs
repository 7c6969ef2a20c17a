using System.Numerics;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// Which input records are settled (written, rejected or superseded). Batches finish out of order and rows wait in
/// partial batches, so the settled records are not a prefix of the input: below the watermark (<see cref="Current"/>)
/// all are; above it, up to the highest record that passed the batch stage, all are but those still in a batch. A
/// restart skips the first kind and, of the second, re-sends only the records that were still in a batch — not the
/// rows other partitions settled meanwhile, which on skewed data (a hot partition's batches queue one after another)
/// can be tens of thousands. A batch whose rows failed stays unsettled, so a restart writes its rows again.
/// Thread-safe: the batch stage marks rows pending, the dispatcher settles them, the checkpoint writer takes snapshots.
/// </summary>
/// <remarks>The records in batches are bits over a window from the watermark up, which slides as the watermark moves.</remarks>
internal sealed class RecordWatermark
{
    private readonly Lock _lock = new();

    // Bit i of the window stands for record _base + i; set while the record is in a batch.
    private ulong[] _window = new ulong[64];
    private long _base;
    private int _firstWord;
    private long _pending;

    private long _batched;
    private long _batchedLine;
    private long _highestSent;
    private readonly PrefixMarks _marks = new();

    /// <param name="resumedAfter">Records already settled by an earlier run (0 for a fresh load).</param>
    /// <param name="resumedAt">The input's fingerprint up to <paramref name="resumedAfter"/>, when the load keeps one.</param>
    public RecordWatermark(long resumedAfter = 0, PrefixMark? resumedAt = null)
    {
        _batched = resumedAfter;
        _base = resumedAfter + 1;
        if (resumedAt is not null)
        {
            _batchedLine = resumedAt.Line;
            _marks.Add(resumedAt);
        }
    }

    /// <summary>The next record not known to be settled: a restart reads from here.</summary>
    public long Current
    {
        get
        {
            lock (_lock)
            {
                return FirstPending() ?? _batched + 1;
            }
        }
    }

    /// <summary>The highest record sent to the service so far (a restart under Insert meets its own rows up to here).</summary>
    public long HighestSent
    {
        get
        {
            lock (_lock)
            {
                return _highestSent;
            }
        }
    }

    /// <summary>Rows in batches that are not settled yet.</summary>
    public long PendingRows
    {
        get
        {
            lock (_lock)
            {
                return _pending;
            }
        }
    }

    /// <summary>Rows entered batches; they are pending until <see cref="Settled"/>. Records come in input order.</summary>
    public void Pending(ReadOnlySpan<long> records)
    {
        lock (_lock)
        {
            foreach (var record in records)
            {
                var bit = record - _base;
                if (bit < 0)
                {
                    continue; // below the window: settled by an earlier run
                }

                EnsureRoom(bit);
                bit = record - _base;
                ref var word = ref _window[bit >> 6];
                var mask = 1UL << (int)(bit & 63);
                if ((word & mask) == 0)
                {
                    word |= mask;
                    _pending++;
                }
            }
        }
    }

    /// <summary>Rows of a batch that settled in full (written, refused and rejected), and the rows they superseded, which settle with them.</summary>
    public void Settled(ReadOnlySpan<long> rows, IEnumerable<long>? superseded = null)
    {
        lock (_lock)
        {
            foreach (var record in rows)
            {
                Settle(record);
            }

            foreach (var record in superseded ?? [])
            {
                Settle(record);
            }
        }
    }

    private void Settle(long record)
    {
        var bit = record - _base;
        if (bit < 0 || (bit >> 6) >= _window.Length)
        {
            return;
        }

        ref var word = ref _window[bit >> 6];
        var mask = 1UL << (int)(bit & 63);
        if ((word & mask) != 0)
        {
            word &= ~mask;
            _pending--;
        }
    }

    /// <summary>
    /// Every record up to <paramref name="record"/> (on <paramref name="line"/>) has passed the batch stage: into a batch,
    /// or settled before it. <paramref name="fingerprint"/> is the input's fingerprint up to it, when the load keeps one.
    /// </summary>
    public void Batched(long record, long line, UInt128? fingerprint = null)
    {
        lock (_lock)
        {
            if (record > _batched)
            {
                _batched = record;
                _batchedLine = line;
                if (fingerprint is { } hash)
                {
                    _marks.Add(new PrefixMark(record, line, Records.RecordSequenceHash.Text(hash)));
                }
            }
        }
    }

    public void Sent(long record)
    {
        lock (_lock)
        {
            _highestSent = Math.Max(_highestSent, record);
        }
    }

    /// <summary>Where the load stands, for a checkpoint: the watermark, how far the batch stage got, and what is pending between.</summary>
    public WatermarkSnapshot Snapshot()
    {
        lock (_lock)
        {
            var next = FirstPending() ?? _batched + 1;
            var ranges = new List<long[]>();
            if (next <= _batched)
            {
                long? start = null;
                for (var record = next; record <= _batched; record++)
                {
                    var pending = IsPending(record);
                    if (pending && start is null)
                    {
                        start = record;
                    }
                    else if (!pending && start is { } from)
                    {
                        ranges.Add([from, record - 1]);
                        start = null;
                    }
                }

                if (start is { } last)
                {
                    ranges.Add([last, _batched]);
                }
            }

            _marks.SettledBelow(next);
            return new WatermarkSnapshot(next, _batched, _batchedLine, ranges, _pending) { Prefix = _marks.Snapshot() };
        }
    }

    private bool IsPending(long record)
    {
        var bit = record - _base;
        return bit >= 0 && (bit >> 6) < _window.Length && (_window[bit >> 6] & (1UL << (int)(bit & 63))) != 0;
    }

    private long? FirstPending()
    {
        if (_pending == 0)
        {
            return null;
        }

        while (_window[_firstWord] == 0)
        {
            _firstWord++;
        }

        return _base + (_firstWord * 64L) + BitOperations.TrailingZeroCount(_window[_firstWord]);
    }

    /// <summary>Makes the window reach <paramref name="bit"/>: slides past the settled words at its start, or grows.</summary>
    private void EnsureRoom(long bit)
    {
        if ((bit >> 6) < _window.Length)
        {
            return;
        }

        var settledWords = _pending == 0 ? _window.Length : FirstPendingWord();
        if (settledWords > 0)
        {
            var kept = _window.Length - settledWords;
            Array.Copy(_window, settledWords, _window, 0, kept);
            Array.Clear(_window, kept, settledWords);
            _base += settledWords * 64L;
            _firstWord = 0;
            bit -= settledWords * 64L;
        }

        var needed = (int)(bit >> 6) + 1;
        if (needed > _window.Length)
        {
            Array.Resize(ref _window, Math.Max(needed, _window.Length * 2));
        }
    }

    private int FirstPendingWord()
    {
        FirstPending();
        return _firstWord;
    }
}

/// <summary>Where a load stands: see <see cref="RecordWatermark"/>.</summary>
/// <param name="NextRecord">The watermark: every record before it is settled.</param>
/// <param name="ReadUpTo">The highest record that passed the batch stage.</param>
/// <param name="ReadUpToLine">The line on which that record starts.</param>
/// <param name="Pending">The records from the watermark to <paramref name="ReadUpTo"/> still in batches, as [first, last] ranges.</param>
/// <param name="PendingRows">How many they are.</param>
internal sealed record WatermarkSnapshot(long NextRecord, long ReadUpTo, long ReadUpToLine, IReadOnlyList<long[]> Pending, long PendingRows)
{
    /// <summary>The input's fingerprint at points up to <see cref="ReadUpTo"/> (see <see cref="PrefixMarks"/>).</summary>
    public IReadOnlyList<PrefixMark> Prefix { get; init; } = [];
}
