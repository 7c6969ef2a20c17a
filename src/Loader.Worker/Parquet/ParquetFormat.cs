using Loader.Abstractions;
using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// Parquet: each part read from its footer, row group by row group; a part cut for range shards at row group starts.
/// <c>Loader:Columns</c> is checked against the file's column types when it is opened: a type a column's values cannot
/// be converted to is refused at start.
/// </summary>
/// <param name="options">What DECIMAL columns are written as.</param>
/// <param name="pathSeparator">Joins a struct's name and its fields' (the store's path separator).</param>
/// <param name="columnTypes"><c>Loader:Columns</c>.</param>
internal sealed class ParquetFormat(ParquetOptions options, string pathSeparator, IReadOnlyDictionary<string, ColumnType> columnTypes) : IRecordFormat
{
    public InputFormat Format => InputFormat.Parquet;

    public IRecordReader Open(InputSource source, int bufferSize)
    {
        var reader = ParquetRecordReader.Open(source, bufferSize, options.Decimal, pathSeparator);
        var problems = reader.Plan
            .Where(column => columnTypes.TryGetValue(column.Name, out var asked) && !CanConvert(column.Type, asked))
            .Select(column => $"Loader:Columns:{column.Name} asks for {columnTypes[column.Name]}, but the Parquet column is {column.ParquetType} (read as {column.Type}): text converts to any type, Int32 to Int64 or Double, and any value to String")
            .ToList();
        if (problems.Count > 0)
        {
            reader.Dispose();
            throw new InputHeaderException(string.Join(Environment.NewLine, problems));
        }

        return reader;
    }

    /// <summary>Cuts at the first row group starting at or after each target; a part is its own whole file, without a header.</summary>
    public RecordCuts? FindCuts(InputPart part, int bufferSize, IReadOnlyList<long> targets, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(part);
        ArgumentNullException.ThrowIfNull(targets);
        var file = ParquetFileReader.OpenAsync(part.OpenSeekable(bufferSize), part.Name, options.Decimal, pathSeparator, cancellationToken).GetAwaiter().GetResult();
        try
        {
            return Cut(file, targets);
        }
        finally
        {
            file.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
    }

    private static RecordCuts Cut(ParquetFileReader file, IReadOnlyList<long> targets)
    {
        var cuts = new List<RecordCut>();
        var group = 1; // the first row group always opens the first range
        foreach (var target in targets)
        {
            while (group < file.RowGroupCount && file.OffsetOf(group) < target)
            {
                group++;
            }

            if (group >= file.RowGroupCount)
            {
                break;
            }

            if (cuts.Count == 0 || cuts[^1].Offset < file.OffsetOf(group))
            {
                var before = file.FirstRecordOf(group) - 1;
                cuts.Add(new RecordCut(file.OffsetOf(group), before + 1, before));
            }
        }

        return new RecordCuts(0, cuts);
    }

    private static bool CanConvert(ColumnType read, ColumnType asked) =>
        read == asked || read == ColumnType.String || asked == ColumnType.String || (read == ColumnType.Int32 && asked is ColumnType.Int64 or ColumnType.Double);
}
