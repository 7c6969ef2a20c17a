namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// A compressed part's text, its reads timed into <see cref="InputProgress.Decompressing"/>: the time each read takes
/// less the time it waited for stored bytes, so the report tells decompressing from downloading.
/// </summary>
internal sealed class TimedDecompression(Stream text, InputProgress progress) : ForwardReadStream
{
    public override int Read(Span<byte> buffer)
    {
        var started = progress.Clock.GetTimestamp();
        var storedBefore = progress.Reading;
        var read = text.Read(buffer);
        progress.DecompressedRead(started, storedBefore);
        return read;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            text.Dispose();
        }

        base.Dispose(disposing);
    }
}
