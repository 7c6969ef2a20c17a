namespace Loader.Worker.Inputs;

/// <summary>
/// Where a line of a combined input came from. Lines are numbered through the parts as the CSV reader sees them
/// (the first part's header is line 1; later parts' headers are left out), which is what checkpoints count in;
/// a person looking for a rejected row needs the part and its own line. Filled while reading, read by the
/// rejects on other threads.
/// </summary>
internal sealed class InputLineMap
{
    private readonly Lock _lock = new();
    private readonly List<(long FirstLine, long Offset, string Name)> _parts = [];

    /// <summary>Whether the input has more than one part, so a line needs its part named.</summary>
    public bool HasSeveralParts { get; init; }

    /// <summary>Records that the part <paramref name="name"/> starts at combined line <paramref name="firstLine"/>, its own line <paramref name="ownLine"/>.</summary>
    internal void PartStarts(string name, long firstLine, long ownLine)
    {
        lock (_lock)
        {
            _parts.Add((firstLine, firstLine - ownLine, name));
        }
    }

    /// <summary>The part and its own line number for a combined line; null before any part started.</summary>
    public (string Part, long Line)? Locate(long line)
    {
        lock (_lock)
        {
            for (var i = _parts.Count - 1; i >= 0; i--)
            {
                if (_parts[i].FirstLine <= line)
                {
                    return (_parts[i].Name, line - _parts[i].Offset);
                }
            }

            return null;
        }
    }
}
