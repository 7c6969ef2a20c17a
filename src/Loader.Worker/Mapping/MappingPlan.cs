using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;

namespace Loader.Worker.Mapping;

/// <summary>
/// How every record of an input becomes an entity: key templates bound to column positions and the type and
/// name of each written column. Built once from the header; every problem with the header or the settings
/// is found here, before anything is written.
/// </summary>
internal sealed class MappingPlan
{
    private MappingPlan(
        IReadOnlyList<string> header,
        CompiledKeyTemplate partitionKey,
        CompiledKeyTemplate rowKey,
        WrittenColumn[] columns)
    {
        Header = header;
        PartitionKey = partitionKey;
        RowKey = rowKey;
        WrittenColumns = columns;
    }

    public IReadOnlyList<string> Header { get; }

    internal CompiledKeyTemplate PartitionKey { get; }

    internal CompiledKeyTemplate RowKey { get; }

    /// <summary>The columns written as properties, in header order.</summary>
    public IReadOnlyList<WrittenColumn> Columns => WrittenColumns;

    /// <summary>The same, as an array for the mapper's per-row loop.</summary>
    internal WrittenColumn[] WrittenColumns { get; }

    /// <summary>A column written as a property.</summary>
    public readonly record struct WrittenColumn(int Index, string Name, ColumnType Type)
    {
        /// <summary>The name as properties hold it, registered once here rather than looked up per row.</summary>
        public PropertyName Property { get; } = PropertyName.Of(Name);
    }

    /// <summary>Binds templates and column types to a header; throws <see cref="CsvHeaderException"/> naming the column or setting at fault.</summary>
    public static MappingPlan Create(
        IReadOnlyList<string> header,
        KeyTemplate partitionKey,
        KeyTemplate rowKey,
        IReadOnlyDictionary<string, ColumnType> columnTypes,
        IBackendAdapter backend)
    {
        var problems = new List<string>();
        var index = new Dictionary<string, int>(StringComparer.Ordinal);
        for (var i = 0; i < header.Count; i++)
        {
            var name = header[i];
            if (name.Length == 0)
            {
                problems.Add(string.Create(CultureInfo.InvariantCulture, $"column {i + 1} has no name"));
            }
            else if (!index.TryAdd(name, i))
            {
                problems.Add(string.Create(CultureInfo.InvariantCulture, $"columns {index[name] + 1} and {i + 1} are both named '{InputText.Escape(name)}'"));
            }
        }

        var systemNames = backend.Limits.SystemPropertyNames;
        var columns = new List<WrittenColumn>();
        foreach (var (name, i) in index)
        {
            if (systemNames.Contains(name))
            {
                continue;
            }

            if (backend.CheckPropertyName(name) is { } nameProblem)
            {
                problems.Add(string.Create(CultureInfo.InvariantCulture, $"column {i + 1} '{InputText.Escape(name)}' is not a valid property name: it {nameProblem}"));
                continue;
            }

            columns.Add(new WrittenColumn(i, name, columnTypes.TryGetValue(name, out var type) ? type : ColumnType.String));
        }

        foreach (var typed in columnTypes.Keys.Where(name => !index.ContainsKey(name)).Order(StringComparer.Ordinal))
        {
            var meant = NearestName.Of(typed, index.Keys) is { } nearest ? $" (did you mean '{InputText.Escape(nearest)}'?)" : "";
            problems.Add($"Loader:Columns:{typed} gives a type to column '{typed}', which the header does not have{meant}");
        }

        var partitionKeyTemplate = Compile(partitionKey, "Loader:PartitionKey", index, problems);
        var rowKeyTemplate = Compile(rowKey, "Loader:RowKey", index, problems);
        if (problems.Count > 0)
        {
            throw new CsvHeaderException(string.Join(Environment.NewLine, problems) + Environment.NewLine
                + $"Header columns: {string.Join(", ", header.Select(h => $"'{InputText.Escape(h)}'"))}");
        }

        columns.Sort((a, b) => a.Index.CompareTo(b.Index));
        return new MappingPlan(header, partitionKeyTemplate!, rowKeyTemplate!, [.. columns]);
    }

    private static CompiledKeyTemplate? Compile(KeyTemplate template, string setting, Dictionary<string, int> index, List<string> problems)
    {
        foreach (var missing in template.Columns.Where(column => !index.ContainsKey(column)))
        {
            var meant = NearestName.Of(missing, index.Keys) is { } nearest ? $" (did you mean '{InputText.Escape(nearest)}'?)" : "";
            problems.Add($"{setting} '{template.Text}' uses column '{missing}', which the header does not have{meant}");
        }

        return template.Columns.All(index.ContainsKey) ? CompiledKeyTemplate.Compile(template, index) : null;
    }
}
