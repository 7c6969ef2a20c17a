using System.Text;
using Loader.Worker.Csv;

namespace Loader.Worker.Tests.Csv;

public sealed class ByteWindowTests
{
    private static byte[] Pattern(int length) => [.. Enumerable.Range(0, length).Select(i => (byte)(i % 251))];

    [Fact]
    public void Positions_stay_put_while_the_bytes_given_out_leave_the_buffer()
    {
        var input = Pattern(1_000_000);
        var window = new ByteWindow(new MemoryStream(input));
        var output = new MemoryStream();
        var chunk = new byte[10_000];
        while (window.Fill() || window.End > window.Origin)
        {
            // Release all but the last 1,000 bytes held: they stay, at the same positions, after the next read.
            var keep = Math.Min(1_000, window.End - window.Origin);
            var released = window.Ended ? window.End : window.End - keep;
            Assert.Equal(input.AsSpan((int)(released - 1), 1).ToArray(), window.Slice(released - 1, released).ToArray());
            window.Release(released);
            int taken;
            while ((taken = window.Take(chunk)) > 0)
            {
                output.Write(chunk, 0, taken);
            }

            if (window.Ended)
            {
                break;
            }
        }

        Assert.Equal(input, output.ToArray());
        Assert.True(window.Origin > 0); // the buffer was compacted on the way
        Assert.False(window.Failed);
    }

    [Fact]
    public void Only_released_bytes_are_given_out()
    {
        var window = new ByteWindow(new MemoryStream("abcdef"u8.ToArray()));
        window.FillTo(6);
        var destination = new byte[10];

        Assert.False(window.HasReleased);
        Assert.Equal(0, window.Take(destination));
        window.Release(4);
        Assert.True(window.HasReleased);
        Assert.Equal(4, window.Take(destination));
        Assert.Equal("abcd", Encoding.ASCII.GetString(destination, 0, 4));
        Assert.False(window.HasReleased);
    }

    [Fact]
    public void Splicing_and_truncating_move_what_follows_and_input_offsets_count_the_difference()
    {
        var window = new ByteWindow(new MemoryStream("abcdefgh"u8.ToArray()));
        window.FillTo(8);

        window.Splice(1, 3, "WXYZ"u8); // two bytes become four
        Assert.Equal("aWXYZdefgh", Encoding.ASCII.GetString(window.Held));
        Assert.Equal(3, window.InputOffset(5)); // 'd' is the input's fourth byte

        window.Truncate(7); // "fgh" dropped
        Assert.Equal("aWXYZde", Encoding.ASCII.GetString(window.Held));
        Assert.Equal(7, window.End);
        Assert.Equal(8, window.InputOffset(7)); // the next byte read is the input's ninth
    }

    [Fact]
    public void A_failed_read_ends_the_input_and_its_failure_is_thrown_when_asked()
    {
        var window = new ByteWindow(new FailingStream("abc"u8.ToArray()));

        Assert.True(window.Fill());
        Assert.False(window.Fill());

        Assert.True(window.Ended);
        Assert.True(window.Failed);
        Assert.Equal("abc", Encoding.ASCII.GetString(window.Held));
        Assert.False(window.Fill()); // the input is not read again
        Assert.Equal("the disk went away", Assert.Throws<IOException>(window.ThrowIfFailed).Message);
    }

    [Fact]
    public void Taken_through_gives_out_what_is_held_then_reads_straight_from_the_input()
    {
        var window = new ByteWindow(new MemoryStream(Pattern(200_000)));
        window.FillTo(4);
        var output = new MemoryStream();
        var chunk = new byte[7_000];
        int taken;
        while ((taken = window.TakeThrough(chunk)) > 0)
        {
            output.Write(chunk, 0, taken);
        }

        Assert.Equal(Pattern(200_000), output.ToArray());
    }

    /// <summary>Gives its bytes, then fails: a stand-in for a read that breaks part way.</summary>
    private sealed class FailingStream(byte[] bytes) : Stream
    {
        private bool _given;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count)
        {
            if (_given)
            {
                throw new IOException("the disk went away");
            }

            _given = true;
            bytes.CopyTo(buffer, offset);
            return bytes.Length;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
