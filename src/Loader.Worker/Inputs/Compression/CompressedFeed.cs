
namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// Hands a decompressor a part's compressed bytes so that, once it says its data ended, it can be told whether the part
/// ended there too. The runtime's decompressors read ahead into a buffer of their own, drop whatever follows the end of
/// their data in it without a word, and ask for more only once they have used up all they were given. So the part's last
/// byte is handed over on its own: a decompressor whose data end before it never asks for it. For gzip, each member
/// signature (1F 8B 08) starts a hand-over, and how much text came before it is noted, so that the last member's end can
/// be placed by the size its trailer gives (<see cref="GzipMemberEnd"/>). Forward-only.
/// </summary>
internal sealed class CompressedFeed(CountingReadStream stored, long length, bool gzip) : ForwardReadStream
{
    // At most this much per hand-over: where data end inside the last one is known to this many bytes.
    private const int HandOverBytes = 16 * 1024;
    private const int MembersKept = 16;
    private const int SizeBytes = 4;

    private static readonly byte[] s_gzipSignature = [0x1F, 0x8B, 0x08];

    private readonly byte[] _buffer = new byte[4 * HandOverBytes];
    private int _start;
    private int _count;
    private bool _storedEnded;
    private long _position;

    // The last hand-over, after the four bytes handed over before it (where a gzip trailer may begin).
    private readonly byte[] _last = new byte[SizeBytes + HandOverBytes];
    private int _lastLength;
    private long _lastStart;
    private readonly Queue<GzipMemberStart> _members = new();

    /// <summary>Bytes of the part handed to the decompressor so far.</summary>
    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    /// <summary>The part's size as stored; 0 when it is not known (a pipe).</summary>
    public long PartLength => length;

    /// <summary>Whether the decompressor asked for more after the part's last byte, and was told the part ended.</summary>
    public bool AskedPastEnd { get; private set; }

    /// <summary>Text the decompressor has given out so far (see <see cref="Decompressed"/>).</summary>
    public long Text { get; private set; }

    /// <summary>Where the bytes handed over last start in the part.</summary>
    public long LastStart => _lastStart;

    /// <summary>The four bytes handed over before the last hand-over, then the last hand-over's bytes.</summary>
    public ReadOnlySpan<byte> LastBytes => _last.AsSpan(0, SizeBytes + _lastLength);

    /// <summary>The latest gzip member signatures handed over, each with the text that came before it.</summary>
    public IReadOnlyCollection<GzipMemberStart> Members => _members;

    /// <summary>Told by the reader of the decompressor how much text it gave out.</summary>
    public void Decompressed(int bytes) => Text += bytes;

    public override int Read(Span<byte> destination)
    {
        if (destination.IsEmpty)
        {
            return 0;
        }

        // Enough held to see a signature that starts right after this hand-over.
        while (_count < HandOverBytes + s_gzipSignature.Length && !_storedEnded)
        {
            Fill();
        }

        if (_count == 0)
        {
            AskedPastEnd = true;
            return 0;
        }

        var count = Math.Min(Math.Min(destination.Length, _count), HandOverBytes);
        if (length > 0 && _position < length - 1)
        {
            count = (int)Math.Min(count, length - 1 - _position);
        }

        var held = _buffer.AsSpan(_start, _count);
        if (gzip)
        {
            if (held.StartsWith(s_gzipSignature))
            {
                _members.Enqueue(new GzipMemberStart(_position, Text));
                if (_members.Count > MembersKept)
                {
                    _members.Dequeue();
                }
            }

            var next = held[1..Math.Min(held.Length, count + s_gzipSignature.Length - 1)].IndexOf(s_gzipSignature);
            count = next >= 0 ? next + 1 : count;
        }

        var handed = held[..count];
        handed.CopyTo(destination);
        Remember(handed);
        _start += count;
        _count -= count;
        _position += count;
        return count;
    }

    private void Fill()
    {
        if (_start > 0)
        {
            _buffer.AsSpan(_start, _count).CopyTo(_buffer);
            _start = 0;
        }

        var read = stored.Read(_buffer.AsSpan(_count));
        _count += read;
        _storedEnded = read == 0;
    }

    private void Remember(ReadOnlySpan<byte> handed)
    {
        // The four bytes before this hand-over: the end of the bytes before it, however short the last hand-over was.
        Span<byte> before = stackalloc byte[SizeBytes];
        _last.AsSpan(_lastLength, SizeBytes).CopyTo(before);
        before.CopyTo(_last);
        handed.CopyTo(_last.AsSpan(SizeBytes));
        _lastLength = handed.Length;
        _lastStart = _position;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            stored.Dispose();
        }

        base.Dispose(disposing);
    }
}

/// <summary>A gzip member signature at byte <paramref name="Offset"/> of the part, after <paramref name="TextBefore"/> bytes of text.</summary>
internal readonly record struct GzipMemberStart(long Offset, long TextBefore);
