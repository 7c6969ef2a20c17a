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
/// <param name="refuseNested">
/// <c>Loader:Json:Nested</c> is Refuse for a flat store (Table Storage): a struct's field or a list is refused at start, a
/// fact of the schema, as a JSON Lines input's first object with a nested value is.
/// </param>
/// <param name="skipped"><c>Loader:SkipColumns</c>: a column of a type no store holds that it names is not read, rather than refused.</param>
internal sealed class ParquetFormat(ParquetOptions options, string pathSeparator, IReadOnlyDictionary<string, ColumnType> columnTypes, bool refuseNested = false, IReadOnlySet<string>? skipped = null) : IRecordFormat
{
    public InputFormat Format => InputFormat.Parquet;

    public IRecordReader Open(InputSource source, int bufferSize)
    {
        var reader = ParquetRecordReader.Open(source, bufferSize, options.Decimal, pathSeparator, skipped);
        var problems = reader.Plan
            .Where(column => columnTypes.TryGetValue(column.Name, out var asked) && !CanConvert(column.Type, asked))
            .Select(column => $"Loader:Columns:{column.Name} asks for {columnTypes[column.Name]}, but the Parquet column is {column.ParquetType} (read as {column.Type}): text converts to any type, Int32 to Int64 or Double, and any value to String")
            .ToList();
        if (refuseNested && reader.Plan.Where(IsNested).Select(Nesting).ToList() is { Count: > 0 } nested)
        {
            problems.Add($"Loader:Json:Nested is Refuse, and the Parquet input has nested columns: {string.Join(", ", nested)}. Table Storage entities are flat: set Loader:Json:Nested to Flatten to write a struct's fields as properties of their own ('a{pathSeparator}b') and a list as its JSON text.");
        }

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
        var file = ParquetFileReader.OpenAsync(part.OpenSeekable(bufferSize), part.Name, options.Decimal, pathSeparator, cancellationToken, skipped).GetAwaiter().GetResult();
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

    /// <summary>A list, or a field of a struct: what a flat entity holds only flattened.</summary>
    private static bool IsNested(ParquetColumn column) => !column.Unread && (column.Type == ColumnType.Json || column.Leaf.Path.Length > 1);

    private static string Nesting(ParquetColumn column) => column.Type == ColumnType.Json
        ? $"'{column.Name}' is a {column.ParquetType}"
        : $"'{column.Name}' is a field of the struct '{column.Leaf.Path.FirstPart}'";

    private static bool CanConvert(ColumnType read, ColumnType asked) =>
        read == asked || read == ColumnType.String || asked == ColumnType.String || (read == ColumnType.Int32 && asked is ColumnType.Int64 or ColumnType.Double);
}
