using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.InteropServices;
using System.Text.Unicode;
using Loader.Worker.Inputs;

namespace Loader.Worker.Csv;

/// <summary>
/// Reads input that starts with a UTF-16 byte-order mark (little- or big-endian) as UTF-8, so that the rest of the
/// reader — the runaway-quote guard, the parser, the mapper's check of every record — sees one encoding. An unpaired
/// surrogate (and an odd byte at the very end) becomes 0xFF, a byte no UTF-8 holds: the mapper then rejects the record
/// as it rejects invalid UTF-8, where transcoding with replacement would have stored U+FFFD without a word. Other input
/// (UTF-8, or UTF-32, which the parser transcodes itself) passes through as it is.
/// </summary>
internal sealed class Utf16Input(Stream inner) : ForwardReadStream
{
    /// <summary>What an unpaired surrogate is read as: never part of UTF-8.</summary>
    public const byte NotUtf8 = 0xFF;

    private const int ChunkBytes = 64 * 1024;

    // Input bytes not yet decoded: at most three carried over between chunks (an odd byte, a high surrogate waiting for
    // its pair) before a chunk is read behind them.
    private readonly byte[] _input = new byte[ChunkBytes + 4];
    private int _inputLength;
    private int _inputStart;

    // The code units of a chunk in the machine's byte order, when the input's is the other.
    private char[]? _swapped;

    // UTF-8 made from the input and not yet read: each UTF-16 code unit makes at most three bytes.
    private byte[]? _output;
    private int _outputStart;
    private int _outputLength;

    private bool _started;
    private bool _ended;
    private bool _bigEndian;

    /// <summary>Whether the input is UTF-16 and read transcoded; known once the first byte was read.</summary>
    public bool IsUtf16 { get; private set; }

    public override int Read(Span<byte> destination)
    {
        if (destination.IsEmpty)
        {
            return 0;
        }

        if (!_started)
        {
            Start();
        }

        if (!IsUtf16)
        {
            return PassThrough(destination);
        }

        while (_outputStart == _outputLength)
        {
            if (!Transcode())
            {
                return 0;
            }
        }

        var count = Math.Min(destination.Length, _outputLength - _outputStart);
        _output.AsSpan(_outputStart, count).CopyTo(destination);
        _outputStart += count;
        return count;
    }

    /// <summary>Reads up to four bytes to see the byte-order mark: FF FE (but not FF FE 00 00, UTF-32) or FE FF.</summary>
    private void Start()
    {
        _started = true;
        while (_inputLength < 4 && inner.Read(_input.AsSpan(_inputLength, 4 - _inputLength)) is var read && read > 0)
        {
            _inputLength += read;
        }

        var start = _input.AsSpan(0, _inputLength);
        var littleEndian = start.StartsWith((ReadOnlySpan<byte>)[0xFF, 0xFE]) && !start.StartsWith((ReadOnlySpan<byte>)[0xFF, 0xFE, 0x00, 0x00]);
        _bigEndian = start.StartsWith((ReadOnlySpan<byte>)[0xFE, 0xFF]);
        IsUtf16 = littleEndian || _bigEndian;
        if (IsUtf16)
        {
            _inputStart = 2; // the mark itself is not text
            _output = new byte[(ChunkBytes / 2 + 2) * 3];
        }
    }

    private int PassThrough(Span<byte> destination)
    {
        if (_inputStart == _inputLength)
        {
            return inner.Read(destination);
        }

        var count = Math.Min(destination.Length, _inputLength - _inputStart);
        _input.AsSpan(_inputStart, count).CopyTo(destination);
        _inputStart += count;
        return count;
    }

    /// <summary>Reads a chunk behind what is carried over and makes UTF-8 of it; false once the input has ended and nothing is left.</summary>
    private bool Transcode()
    {
        var carried = _inputLength - _inputStart;
        _input.AsSpan(_inputStart, carried).CopyTo(_input);
        _inputStart = 0;
        _inputLength = carried;
        if (!_ended)
        {
            var read = inner.Read(_input.AsSpan(_inputLength, ChunkBytes));
            _inputLength += read;
            _ended = read == 0;
        }

        var units = _inputLength / 2;
        var text = Units(_input.AsSpan(0, units * 2));
        var output = _output!;
        var written = 0;
        var consumed = 0;
        while (consumed < units)
        {
            var status = Utf8.FromUtf16(text[consumed..], output.AsSpan(written), out var read, out var made, replaceInvalidSequences: false, isFinalBlock: _ended);
            consumed += read;
            written += made;
            if (status != OperationStatus.InvalidData)
            {
                break; // done, or a high surrogate at the end of the chunk whose pair comes with the next
            }

            output[written++] = NotUtf8;
            consumed++;
        }

        _inputStart = consumed * 2;
        if (_ended && _inputLength - _inputStart == 1)
        {
            output[written++] = NotUtf8; // half a code unit at the end of the input
            _inputStart = _inputLength;
        }

        _outputStart = 0;
        _outputLength = written;
        return written > 0 || !_ended || _inputStart < _inputLength;
    }

    /// <summary>The code units of <paramref name="bytes"/>, in the machine's byte order (swapped into a copy: the bytes carried over are decoded again).</summary>
    private ReadOnlySpan<char> Units(ReadOnlySpan<byte> bytes)
    {
        var units = MemoryMarshal.Cast<byte, ushort>(bytes);
        if (_bigEndian != BitConverter.IsLittleEndian)
        {
            return MemoryMarshal.Cast<ushort, char>(units);
        }

        _swapped ??= new char[_input.Length / 2];
        var swapped = _swapped.AsSpan(0, units.Length);
        BinaryPrimitives.ReverseEndianness(units, MemoryMarshal.Cast<char, ushort>(swapped));
        return swapped;
    }
}
