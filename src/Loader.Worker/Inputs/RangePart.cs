namespace Loader.Worker.Inputs;

/// <summary>
/// A byte range of a plain part, read as a CSV of its own: the part's header (<paramref name="HeaderBytes"/> from its
/// top), then the records from <paramref name="Start"/> up to <paramref name="End"/>. A range from the top has the part's
/// own header and nothing is put before it. Both ends lie at record boundaries (see <see cref="Csv.RecordCutFinder"/>).
/// Compressed parts are never cut: they cannot be read from the middle.
/// </summary>
internal sealed record RangePart(InputPart Whole, long HeaderBytes, long Start, long End) : InputPart(Whole.Name, (Start == 0 ? 0 : HeaderBytes) + End - Start)
{
    /// <summary>The part's version and the range: a checkpoint of one range never applies to another.</summary>
    public override string? Version => $"{Whole.Version ?? "size " + Whole.Length}; bytes {Start}-{End}";

    public override DateTimeOffset? LastModified => Whole.LastModified;

    /// <summary>The whole part: a range of a Parquet file is a range of its row groups, which its footer locates.</summary>
    public override Stream OpenSeekable(int bufferSize) => Whole.OpenSeekable(bufferSize);

    protected override Stream OpenStored(int bufferSize)
    {
        if (Start == 0 || HeaderBytes == 0)
        {
            // The top range has its header; a format without one (JSON Lines) reads any range alone.
            return Whole.OpenRange(Start, End, bufferSize);
        }

        var header = new byte[HeaderBytes];
        using (var top = Whole.OpenRange(0, HeaderBytes, (int)Math.Max(1, Math.Min(bufferSize, HeaderBytes))))
        {
            top.ReadExactly(header);
        }

        return new PrefixedRangeStream(header, Whole.OpenRange(Start, End, bufferSize), End - Start);
    }
}
