using System.Globalization;
using System.Text;

namespace Loader.Worker.JsonLines;

/// <summary>
/// Finds the lines of JSON Lines input: UTF-8 (a byte-order mark is passed over), split on '\n' with a '\r' before it
/// dropped, blank lines passed over but counted. A line longer than the limit is passed over to its end and comes back
/// with the reason and the start of its text instead.
/// </summary>
internal sealed class JsonLineSource(Stream stream, int maxLineBytes)
{
    private const int BufferSize = 256 * 1024;

    // What a rejected line that is too long keeps of its text.
    private const int KeptTextBytes = 4096;

    private byte[] _buffer = new byte[BufferSize];
    private long _bufferOffset; // the input offset of _buffer[0]
    private int _start;
    private int _end;
    private bool _ended;
    private bool _started;

    /// <summary>Lines found so far, blank ones included.</summary>
    public long Lines { get; private set; }

    /// <summary>A line found: its text (valid until the next call), or why it is not read and what is kept of it.</summary>
    internal readonly ref struct Found
    {
        public ReadOnlySpan<byte> Text { get; init; }

        /// <summary>The input offset the line starts at.</summary>
        public long Offset { get; init; }

        public long Line { get; init; }

        public string? Problem { get; init; }

        public string? KeptText { get; init; }
    }

    /// <summary>The next line that is not blank; false at the end of the input.</summary>
    public bool Next(out Found found)
    {
        while (NextLine(out var start, out var length, out var tooLong))
        {
            var offset = _bufferOffset + start;
            if (tooLong is not null || length > maxLineBytes)
            {
                found = new Found
                {
                    Offset = offset,
                    Line = Lines,
                    Problem = string.Create(CultureInfo.InvariantCulture, $"the line is longer than Loader:Csv:MaxRecordBytes ({maxLineBytes:N0} bytes)"),
                    KeptText = tooLong ?? Encoding.UTF8.GetString(_buffer.AsSpan(start, KeptTextBytes)) + "…",
                };
                return true;
            }

            var text = _buffer.AsSpan(start, length);
            if (text.Length > 0 && text[^1] == (byte)'\r')
            {
                text = text[..^1];
            }

            if (text.Trim(" \t\r"u8).IsEmpty)
            {
                continue;
            }

            found = new Found { Text = text, Offset = offset, Line = Lines };
            return true;
        }

        found = default;
        return false;
    }

    /// <summary>
    /// The next line, without its line break: where it is in the buffer (valid until the next call); for a line longer than
    /// the limit, the text kept of it instead (it is passed over to its end).
    /// </summary>
    private bool NextLine(out int start, out int length, out string? tooLong)
    {
        tooLong = null;
        var scanned = _start;
        while (true)
        {
            var found = _buffer.AsSpan(scanned, _end - scanned).IndexOf((byte)'\n');
            if (found >= 0)
            {
                start = _start;
                length = scanned + found - _start;
                _start = scanned + found + 1;
                Lines++;
                return true;
            }

            scanned = _end;
            if (_ended)
            {
                start = _start;
                length = _end - _start;
                _start = _end;
                if (length == 0)
                {
                    return false;
                }

                Lines++;
                return true;
            }

            if (_end - _start > maxLineBytes)
            {
                start = _start;
                length = 0;
                tooLong = Encoding.UTF8.GetString(_buffer.AsSpan(_start, KeptTextBytes)) + "…";
                PassOverLine();
                Lines++;
                return true;
            }

            scanned -= Fill();
        }
    }

    /// <summary>Reads on past the end of the current line, which is too long to hold.</summary>
    private void PassOverLine()
    {
        while (true)
        {
            var found = _buffer.AsSpan(_start, _end - _start).IndexOf((byte)'\n');
            if (found >= 0)
            {
                _start += found + 1;
                return;
            }

            _bufferOffset += _end;
            _start = _end = 0;
            if (_ended)
            {
                return;
            }

            Fill();
        }
    }

    /// <summary>Moves the unread bytes to the buffer's start (growing it when they fill it) and reads more; returns how far the bytes moved.</summary>
    private int Fill()
    {
        var moved = _start;
        if (_start > 0)
        {
            _buffer.AsSpan(_start, _end - _start).CopyTo(_buffer);
            _bufferOffset += _start;
            _end -= _start;
            _start = 0;
        }

        if (_end == _buffer.Length)
        {
            Array.Resize(ref _buffer, _buffer.Length * 2);
        }

        var read = stream.Read(_buffer, _end, _buffer.Length - _end);
        if (read == 0)
        {
            _ended = true;
        }

        _end += read;
        if (!_started && _end >= 3)
        {
            _started = true;
            if (_buffer.AsSpan(0, 3).SequenceEqual("\uFEFF"u8))
            {
                _start = 3;
            }
        }
        else if (!_started && _ended)
        {
            _started = true;
        }

        return moved;
    }
}
