using Loader.Worker.Records;

namespace Loader.Worker.Csv;

/// <summary>
/// The planning pass of range shards. Reads a part with the loader's own reader (the runaway-quote guard and the
/// parser, nothing mapped) and finds, for each target byte offset, the first record that starts at or after it where
/// both the guard and the parser see a record start: outside any quoted field, so a line break inside quotes is never
/// a cut, and after any span the guard rejected. A reader started there, with the header before it, reads what the
/// whole part's reader read from there on.
/// </summary>
internal static class RecordCutFinder
{
    /// <summary>Finds the cuts; <paramref name="targets"/> ascending. Cuts at the same record count once.</summary>
    /// <returns>Null when the part cannot be cut: not UTF-8 (UTF-16 is read transcoded, so its offsets are not the part's; UTF-32 passes the guard unscanned), or no record after its header.</returns>
    public static RecordCuts? Find(Stream part, CsvOptions options, IReadOnlyList<long> targets, CancellationToken cancellationToken)
    {
        // Boundaries the guard passed at or after the current target, oldest first. The guard runs ahead of the parser by
        // its read-ahead, so this holds at most the boundaries of one buffer.
        var ahead = new Queue<(long ParserOffset, long InputOffset)>();
        var next = 0;
        long target = 0; // the first target is the first record: where the header ends
        using var reader = CsvRecordReader.Open(part, options, (parserOffset, inputOffset) =>
        {
            if (inputOffset >= target)
            {
                ahead.Enqueue((parserOffset, inputOffset));
            }
        });

        long? headerBytes = null;
        var cuts = new List<RecordCut>();
        long records = 0;
        foreach (var (parserOffset, line, record) in reader.RecordStarts())
        {
            if ((++records & 0xFFFF) == 0)
            {
                cancellationToken.ThrowIfCancellationRequested();
            }

            while (ahead.TryPeek(out var boundary) && boundary.ParserOffset < parserOffset)
            {
                ahead.Dequeue();
            }

            if (!ahead.TryPeek(out var here) || here.ParserOffset != parserOffset)
            {
                continue; // not past the target yet, or a record start the guard does not share (malformed quoting)
            }

            if (headerBytes is null)
            {
                headerBytes = here.InputOffset;
            }
            else
            {
                cuts.Add(new RecordCut(here.InputOffset, line, record - 1));
            }

            while (next < targets.Count && targets[next] <= here.InputOffset)
            {
                next++;
            }

            if (next == targets.Count)
            {
                break;
            }

            target = targets[next];
            while (ahead.TryPeek(out var below) && below.InputOffset < target)
            {
                ahead.Dequeue();
            }
        }

        return headerBytes is { } header ? new RecordCuts(header, cuts) : null;
    }
}
