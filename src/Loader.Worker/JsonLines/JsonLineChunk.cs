namespace Loader.Worker.JsonLines;

/// <summary>
/// Lines the reading thread found, copied one after another into one buffer that is reused from chunk to chunk, for the
/// parsing threads to parse and map. A line too long to read is kept as its reason and the start of its text.
/// </summary>
internal sealed class JsonLineChunk
{
    private const int InitialBytes = 1024 * 1024;

    private byte[] _bytes = new byte[InitialBytes];
    private readonly List<Line> _lines = [];
    private int _used;
    private int _candidates;

    /// <param name="Start">Where its text is in <see cref="Bytes"/>.</param>
    /// <param name="Length">Its length.</param>
    /// <param name="Offset">The input offset it starts at.</param>
    /// <param name="LineNumber">Its line.</param>
    /// <param name="CandidatesBefore">Lines of the chunk before it that are to be parsed: its record number, counted from the chunk's first, when each of them is a record.</param>
    /// <param name="Problem">Why it is not read at all (too long), or null.</param>
    /// <param name="KeptText">What is kept of its text when it is not read.</param>
    internal readonly record struct Line(int Start, int Length, long Offset, long LineNumber, int CandidatesBefore, string? Problem, string? KeptText);

    public byte[] Bytes => _bytes;

    public int Count => _lines.Count;

    /// <summary>Bytes the lines take so far.</summary>
    public int Used => _used;

    public Line this[int index] => _lines[index];

    public ReadOnlySpan<byte> Text(in Line line) => _bytes.AsSpan(line.Start, line.Length);

    public void Clear()
    {
        _lines.Clear();
        _used = 0;
        _candidates = 0;
    }

    public void Add(ReadOnlySpan<byte> text, long offset, long line)
    {
        if (_bytes.Length - _used < text.Length)
        {
            Array.Resize(ref _bytes, Math.Max(_bytes.Length * 2, _used + text.Length));
        }

        text.CopyTo(_bytes.AsSpan(_used));
        _lines.Add(new Line(_used, text.Length, offset, line, _candidates++, null, null));
        _used += text.Length;
    }

    public void AddUnread(long offset, long line, string problem, string keptText) =>
        _lines.Add(new Line(_used, 0, offset, line, _candidates, problem, keptText));
}
