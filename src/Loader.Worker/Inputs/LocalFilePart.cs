
namespace Loader.Worker.Inputs;

/// <summary>A file on a local or mounted disk.</summary>
internal sealed record LocalFilePart(string Path, long Length) : InputPart(System.IO.Path.GetFileName(Path), Length)
{
    public override string? Version => null;

    /// <summary>The file's last write time when the input was opened.</summary>
    public DateTimeOffset? Modified { get; init; }

    public override DateTimeOffset? LastModified => Modified;

    protected override Stream OpenStored(int bufferSize) =>
        new FileStream(Path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);

    public override Stream OpenSeekable(int bufferSize) =>
        new FileStream(Path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: Math.Clamp(bufferSize, 1, 1024 * 1024), FileOptions.RandomAccess);

    public override bool CanOpenRange => Compression == InputCompression.None;

    public override Stream OpenRange(long start, long end, int bufferSize)
    {
        var file = OpenStored(bufferSize);
        file.Position = start;
        return new PrefixedRangeStream([], file, end - start);
    }
}
