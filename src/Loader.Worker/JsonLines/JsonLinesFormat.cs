using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.JsonLines;

/// <summary>JSON Lines: parts read one after another as one text (none has a header), cut at the starts of lines that hold an object.</summary>
internal sealed class JsonLinesFormat(JsonLinesSettings settings) : IRecordFormat
{
    public InputFormat Format => InputFormat.JsonLines;

    public IRecordReader Open(InputSource source, int bufferSize) => JsonLinesReader.Open(source.Open(bufferSize), settings, ownsStream: true);

    /// <summary>Each cut is the first line at or after its target that holds an object: a range read from there reads what the whole part's reader read.</summary>
    public RecordCuts? FindCuts(InputPart part, int bufferSize, IReadOnlyList<long> targets, CancellationToken cancellationToken)
    {
        using var reader = JsonLinesReader.Open(part.Open(bufferSize), settings, ownsStream: true);
        var cuts = new List<RecordCut>();
        var next = 0;
        long items = 0;
        foreach (var item in reader.Items())
        {
            if ((++items & 0xFFFF) == 0)
            {
                cancellationToken.ThrowIfCancellationRequested();
            }

            if (!item.IsRecord || item.Offset < targets[next])
            {
                continue;
            }

            if (item.Origin.Record > 1)
            {
                cuts.Add(new RecordCut(item.Offset, item.Origin.Line, item.Origin.Record - 1));
            }

            while (next < targets.Count && targets[next] <= item.Offset)
            {
                next++;
            }

            if (next == targets.Count)
            {
                break;
            }
        }

        return new RecordCuts(0, cuts);
    }
}
