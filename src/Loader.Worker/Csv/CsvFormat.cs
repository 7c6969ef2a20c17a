using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.Csv;

/// <summary>CSV (and TSV: the delimiter is <c>Loader:Csv:Delimiter</c>'s, whatever the extension): its parts read as one text under one header, cut at record starts.</summary>
internal sealed class CsvFormat(CsvOptions options) : IRecordFormat
{
    public InputFormat Format => InputFormat.Csv;

    public IRecordReader Open(InputSource source, int bufferSize) => CsvRecordReader.OpenOwned(source.Open(bufferSize), options);

    public RecordCuts? FindCuts(InputPart part, int bufferSize, IReadOnlyList<long> targets, CancellationToken cancellationToken)
    {
        using var stream = part.Open(bufferSize);
        return RecordCutFinder.Find(stream, options, targets, cancellationToken);
    }
}
