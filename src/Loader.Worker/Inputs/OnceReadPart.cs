namespace Loader.Worker.Inputs;

/// <summary>
/// An input read once, as it comes: standard input (<c>Loader:Input</c> <c>-</c>) or a named pipe. Its size is unknown
/// until it ends and it cannot be read again, so nothing identifies it but its name: a load that would read it again (a
/// resume from a checkpoint) refuses it at start (see <see cref="InputSource.ReadsOnce"/>).
/// </summary>
/// <param name="Name">How messages name it.</param>
/// <param name="Kind">What it is, as a message says it: "standard input", "a named pipe".</param>
/// <param name="Stream">The stream, opened already: a named pipe opens when its writer does.</param>
internal sealed record OnceReadPart(string Name, string Kind, Stream Stream) : InputPart(Name, 0)
{
    private int _opened;

    public override string? Version => null;

    protected override Stream OpenStored(int bufferSize) =>
        Interlocked.Exchange(ref _opened, 1) == 0
            ? Stream
            : throw new InputRefusedException($"Loader:Input '{Name}' is {Kind}, which can be read only once, and this run reads it again: write it to a file and load that.");
}
