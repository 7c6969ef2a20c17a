namespace Loader.Worker.Checkpoints;

/// <summary>
/// The fingerprint marks a load has passed (one per chunk of rows the batch stage took in), kept for its checkpoints:
/// every mark from the last one below the watermark on, which a restart checks as it reads again what the checkpoint
/// skips (and it sends nothing read after a mark it has not checked yet), and a few before the watermark, ever wider
/// apart, to narrow down where a changed input differs. Not thread-safe: the watermark's lock guards it.
/// </summary>
internal sealed class PrefixMarks
{
    /// <summary>At most this many marks below the watermark.</summary>
    internal const int EarlierLimit = 32;

    /// <summary>At most this many marks from the watermark on go into a checkpoint (evenly picked, the last always).</summary>
    internal const int WindowLimit = 1024;

    private readonly List<PrefixMark> _earlier = [];
    private readonly List<PrefixMark> _window = [];
    private int _first;
    private long _stride = 1;

    /// <summary>The mark of the records up to the highest one that passed the batch stage; marks come in record order.</summary>
    public void Add(PrefixMark mark)
    {
        if (_window.Count == _first || mark.Record > _window[^1].Record)
        {
            _window.Add(mark);
        }
    }

    /// <summary>The records before <paramref name="nextRecord"/> are settled: the marks below it but the last pass to the earlier ones.</summary>
    public void SettledBelow(long nextRecord)
    {
        while (_first + 1 < _window.Count && _window[_first + 1].Record < nextRecord)
        {
            Keep(_window[_first]);
            _first++;
        }

        if (_first >= 1024 && _first * 2 >= _window.Count)
        {
            _window.RemoveRange(0, _first);
            _first = 0;
        }
    }

    /// <summary>The marks for a checkpoint, in record order: the earlier ones, then those from the watermark on.</summary>
    public IReadOnlyList<PrefixMark> Snapshot()
    {
        var live = _window.Count - _first;
        var marks = new List<PrefixMark>(_earlier.Count + Math.Min(live, WindowLimit));
        marks.AddRange(_earlier);
        if (live <= WindowLimit)
        {
            marks.AddRange(_window.Skip(_first));
            return marks;
        }

        // Evenly spread, ending with the last: a restart holds back at most the rows between two of them.
        for (var i = 1; i <= WindowLimit; i++)
        {
            marks.Add(_window[_first + (int)((long)i * live / WindowLimit) - 1]);
        }

        return marks;
    }

    private void Keep(PrefixMark mark)
    {
        if (_earlier.Count > 0 && mark.Record - _earlier[^1].Record < _stride)
        {
            return;
        }

        _earlier.Add(mark);
        if (_earlier.Count > EarlierLimit)
        {
            // Every other one goes, and the next ones are kept twice as far apart.
            for (var i = _earlier.Count - 2; i > 0; i -= 2)
            {
                _earlier.RemoveAt(i);
            }

            _stride = Math.Max(_stride, (_earlier[^1].Record - _earlier[0].Record) / EarlierLimit) * 2;
        }
    }
}
