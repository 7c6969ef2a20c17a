
namespace Loader.Worker.Inputs;

/// <summary>
/// Reads the parts of an input one after another as one CSV: the first whole, later ones without their header line
/// (checked beforehand to be the same), with a line break added after a part that does not end in one. Each part is
/// decompressed on its own when it is compressed, so plain and compressed parts mix. Counts line
/// breaks as they pass, so <see cref="InputLineMap"/> knows which line each part starts at. Forward-only; one part
/// is open at a time. Parts of a format without a header line (<paramref name="partsHaveHeaders"/> false: JSON Lines) are read whole.
/// </summary>
internal sealed class CombinedPartsStream(IReadOnlyList<InputPart> parts, int bufferSize, InputLineMap lines, InputProgress? progress = null, bool partsHaveHeaders = true) : ForwardReadStream
{
    private Stream? _current;
    private int _next;
    private long _lineBreaks;
    private long _position;
    private byte _lastByte = (byte)'\n';
    private bool _pendingLineBreak;

    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    public override int Read(Span<byte> buffer)
    {
        if (buffer.IsEmpty)
        {
            return 0;
        }

        while (true)
        {
            if (_pendingLineBreak)
            {
                _pendingLineBreak = false;
                buffer[0] = (byte)'\n';
                return Emitted(buffer[..1]);
            }

            if (_current is null && !OpenNext())
            {
                return 0;
            }

            var read = _current!.Read(buffer);
            if (read > 0)
            {
                return Emitted(buffer[..read]);
            }

            _current.Dispose();
            _current = null;
            _pendingLineBreak = _lastByte != (byte)'\n' && _next < parts.Count;
        }
    }

    private bool OpenNext()
    {
        if (_next >= parts.Count)
        {
            return false;
        }

        var part = parts[_next];
        _current = part.Open(bufferSize, progress);
        if (_next == 0)
        {
            lines.PartStarts(part.Name, firstLine: 1, ownLine: 1);
        }
        else if (!partsHaveHeaders)
        {
            lines.PartStarts(part.Name, firstLine: _lineBreaks + 1, ownLine: 1);
        }
        else
        {
            SkipHeaderLine(_current, part.Name);
            lines.PartStarts(part.Name, firstLine: _lineBreaks + 1, ownLine: 2);
        }

        _next++;
        return true;
    }

    private static void SkipHeaderLine(Stream part, string name)
    {
        Span<byte> one = stackalloc byte[1];
        while (part.Read(one) == 1)
        {
            if (one[0] == (byte)'\n')
            {
                return;
            }
        }

        throw new IOException($"'{name}' ended inside its header line");
    }

    private int Emitted(ReadOnlySpan<byte> bytes)
    {
        _lineBreaks += bytes.Count((byte)'\n');
        _position += bytes.Length;
        _lastByte = bytes[^1];
        return bytes.Length;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _current?.Dispose();
        }

        base.Dispose(disposing);
    }
}
