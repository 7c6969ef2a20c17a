namespace Loader.Worker.Verify;

/// <summary>
/// Orders the rows of an input of any size by partition key, row key and place (<see cref="SortedRow.Compare"/>) in bounded
/// memory: an external merge sort. Rows gather in a run of at most <c>rowsPerRun</c>; a full run is sorted and written to a
/// temporary file, and at the end the runs are merged (at most <see cref="MergeWidth"/> files open at once; more are merged
/// in rounds). An input that fits in one run never touches the disk. Rows of a partition spread over the whole input
/// (unsorted input) thus come out together, which is what lets verify read each partition of the target once.
/// Single-threaded: the read loop adds, then the check enumerates once.
/// </summary>
/// <param name="rowsPerRun">Rows held in memory before a run is written out.</param>
/// <param name="directory">Where the runs' files go (a folder of their own, deleted with the sorter); the system's temporary folder when null.</param>
internal sealed class RowSorter(int rowsPerRun, string? directory = null) : IDisposable
{
    /// <summary>Runs merged at once: as many open files and read buffers.</summary>
    internal const int MergeWidth = 64;

    private const int FileBuffer = 64 * 1024;

    private readonly string _directory = Path.Combine(directory ?? Path.GetTempPath(), $"loader-verify-{Guid.NewGuid():N}");
    private readonly Queue<string> _files = new();
    private List<SortedRow> _run = [];
    private int _written;

    /// <summary>Runs written to temporary files so far: 0 when the input fit in memory.</summary>
    public int SpilledRuns { get; private set; }

    public void Add(VerifyRow row)
    {
        if (_run.Count >= rowsPerRun)
        {
            _files.Enqueue(Write(SortRun()));
            SpilledRuns++;
        }

        _run.Add(VerifyRowCodec.Sortable(VerifyRowCodec.Encode(row)));
    }

    /// <summary>Every row added, in order. Enumerate once, after the last row is added.</summary>
    public IEnumerable<SortedRow> Sorted()
    {
        if (_files.Count == 0)
        {
            return SortRun();
        }

        if (_run.Count > 0)
        {
            _files.Enqueue(Write(SortRun()));
            SpilledRuns++;
        }

        while (_files.Count > MergeWidth)
        {
            var round = Enumerable.Range(0, MergeWidth).Select(_ => _files.Dequeue()).ToList();
            _files.Enqueue(Write(Merge(round)));
        }

        return Merge([.. _files]);
    }

    private List<SortedRow> SortRun()
    {
        var run = _run;
        _run = [];
        run.Sort(SortedRow.Compare);
        return run;
    }

    private string Write(IEnumerable<SortedRow> rows)
    {
        Directory.CreateDirectory(_directory);
        var path = Path.Combine(_directory, $"run{++_written:D5}.bin");
        using var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, FileBuffer);
        using var writer = new BinaryWriter(file);
        foreach (var row in rows)
        {
            writer.Write7BitEncodedInt(row.Encoded.Length);
            writer.Write(row.Encoded);
        }

        return path;
    }

    /// <summary>The rows of the runs' files in order, each file deleted once read to its end.</summary>
    private static IEnumerable<SortedRow> Merge(IReadOnlyList<string> files)
    {
        var readers = files.Select(path => new BinaryReader(new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, FileBuffer, FileOptions.SequentialScan | FileOptions.DeleteOnClose))).ToList();
        try
        {
            var heads = new PriorityQueue<BinaryReader, SortedRow>(Comparer<SortedRow>.Create(SortedRow.Compare));
            foreach (var reader in readers)
            {
                if (Next(reader) is { } first)
                {
                    heads.Enqueue(reader, first);
                }
            }

            while (heads.TryDequeue(out var reader, out var row))
            {
                yield return row;
                if (Next(reader) is { } next)
                {
                    heads.Enqueue(reader, next);
                }
            }
        }
        finally
        {
            foreach (var reader in readers)
            {
                reader.Dispose();
            }
        }
    }

    private static SortedRow? Next(BinaryReader reader)
    {
        if (reader.BaseStream.Position >= reader.BaseStream.Length)
        {
            return null;
        }

        return VerifyRowCodec.Sortable(reader.ReadBytes(reader.Read7BitEncodedInt()));
    }

    public void Dispose()
    {
        _run = [];
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }
}
