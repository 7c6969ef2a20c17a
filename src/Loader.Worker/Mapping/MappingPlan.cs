using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.Mapping;

/// <summary>
/// How every record of an input becomes an entity: key templates bound to column positions and the type and
/// name of each written column. Built once from the header; every problem with the header or the settings
/// is found here, before anything is written. The columns a rejects file adds (<see cref="RejectColumns"/>) are left
/// out: a rejects file read back loads its rows' own columns.
/// </summary>
internal sealed class MappingPlan
{
    private MappingPlan(
        IReadOnlyList<string> header,
        CompiledKeyTemplate[] partitionKeyLevels,
        string[] levelNames,
        CompiledKeyTemplate rowKey,
        WrittenColumn[] columns,
        int[] dataColumns)
    {
        Header = header;
        DataColumns = dataColumns;
        RejectedRecordColumn = RejectColumns.PositionIn(header, RejectColumns.Record);
        PartitionKeyTemplates = partitionKeyLevels;
        PartitionKeyLevelNames = levelNames;
        RowKey = rowKey;
        WrittenColumns = columns;
    }

    public IReadOnlyList<string> Header { get; }

    /// <summary>The positions of the input's own columns: all but those a rejects file adds.</summary>
    internal int[] DataColumns { get; }

    /// <summary>The position of a rejects file's <see cref="RejectColumns.Record"/> column, or -1 when the input has none.</summary>
    internal int RejectedRecordColumn { get; }

    /// <summary>The partition key's template: its first level's, the only one but for a hierarchical key.</summary>
    internal CompiledKeyTemplate PartitionKey => PartitionKeyTemplates[0];

    /// <summary>A template per level of the partition key, in order: one, or up to three for a hierarchical Cosmos DB key.</summary>
    internal CompiledKeyTemplate[] PartitionKeyTemplates { get; }

    /// <summary>How a reject names each level: <c>partition key</c> for a key of one, <c>partition key level 2 (/dest)</c> in a hierarchy.</summary>
    internal string[] PartitionKeyLevelNames { get; }

    internal CompiledKeyTemplate RowKey { get; }

    /// <summary>The columns written as properties, in header order.</summary>
    public IReadOnlyList<WrittenColumn> Columns => WrittenColumns;

    /// <summary>The same, as an array for the mapper's per-row loop.</summary>
    internal WrittenColumn[] WrittenColumns { get; }

    /// <summary>A column written as a property; <paramref name="Typed"/> when <c>Loader:Columns</c> gives its type, so a value its format types (a JSON number) is converted to it rather than kept as it is.</summary>
    public readonly record struct WrittenColumn(int Index, string Name, ColumnType Type, bool Typed = false)
    {
        /// <summary>The name as properties hold it, registered once here rather than looked up per row.</summary>
        public PropertyName Property { get; } = PropertyName.Of(Name);
    }

    /// <summary>Binds templates and column types to a header; throws <see cref="InputHeaderException"/> naming the column or setting at fault.</summary>
    /// <param name="header">The input's column names.</param>
    /// <param name="partitionKey">The partition key template.</param>
    /// <param name="rowKey">The row key template.</param>
    /// <param name="columnTypes">Loader:Columns.</param>
    /// <param name="backend">The store's naming rules and system properties.</param>
    /// <param name="keysOnly">Only the keys are written (WriteMode Delete): the other columns are neither typed nor checked, and no property is made of them.</param>
    public static MappingPlan Create(
        IReadOnlyList<string> header,
        KeyTemplate partitionKey,
        KeyTemplate rowKey,
        IReadOnlyDictionary<string, ColumnType> columnTypes,
        IBackendAdapter backend,
        bool keysOnly = false) =>
        Create(header, [partitionKey], [], rowKey, columnTypes, backend, keysOnly);

    /// <summary>
    /// Binds templates and column types to a header, with a template per level of a hierarchical partition key and the path
    /// each level fills (<paramref name="levelPaths"/>, to name them; empty for a key of one level). Messages name the
    /// columns as <paramref name="format"/> holds them (a header, a first object, a schema).
    /// </summary>
    public static MappingPlan Create(
        IReadOnlyList<string> header,
        IReadOnlyList<KeyTemplate> partitionKeyLevels,
        IReadOnlyList<string> levelPaths,
        KeyTemplate rowKey,
        IReadOnlyDictionary<string, ColumnType> columnTypes,
        IBackendAdapter backend,
        bool keysOnly = false,
        InputFormat format = InputFormat.Csv,
        IReadOnlySet<string>? skipped = null)
    {
        skipped ??= new HashSet<string>();
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

        // A rejects file's own columns are known by name, and are neither loaded nor named by the settings.
        var reserved = index.Keys.Where(RejectColumns.IsReserved).ToList();
        foreach (var name in reserved)
        {
            index.Remove(name);
        }

        var systemNames = backend.Limits.SystemPropertyNames;
        var columns = new List<WrittenColumn>();
        IEnumerable<KeyValuePair<string, int>> candidates = keysOnly ? [] : index;
        foreach (var (name, i) in candidates)
        {
            if (systemNames.Contains(name) || skipped.Contains(name))
            {
                continue;
            }

            if (backend.CheckPropertyName(name) is { } nameProblem)
            {
                problems.Add(string.Create(CultureInfo.InvariantCulture, $"column {i + 1} '{InputText.Escape(name)}' is not a valid property name: it {nameProblem}"));
                continue;
            }

            columns.Add(columnTypes.TryGetValue(name, out var type) ? new WrittenColumn(i, name, type, Typed: true) : new WrittenColumn(i, name, ColumnType.String));
        }

        foreach (var skip in skipped.Where(name => !index.ContainsKey(name)).Order(StringComparer.Ordinal))
        {
            problems.Add($"Loader:SkipColumns names '{InputText.Escape(skip)}', {Missing(skip, index, format)}");
        }

        foreach (var typed in columnTypes.Keys.Where(name => !index.ContainsKey(name)).Order(StringComparer.Ordinal))
        {
            problems.Add($"Loader:Columns:{typed} gives a type to column '{typed}', {Missing(typed, index, format)}");
        }

        foreach (var (required, setting) in backend.Limits.RequiredColumns.Where(required => !index.ContainsKey(required.Key)))
        {
            problems.Add($"{setting} names column '{InputText.Escape(required)}', {Missing(required, index, format)}");
        }

        if (backend.Limits.PropertyPathSeparator is { Length: > 0 } separator)
        {
            problems.AddRange(PathConflicts(columns, systemNames, separator));
        }

        var hierarchical = partitionKeyLevels.Count > 1;
        var levelNames = partitionKeyLevels.Select((_, i) => hierarchical ? string.Create(CultureInfo.InvariantCulture, $"partition key level {i + 1} ({levelPaths[i]})") : "partition key").ToArray();
        var levelTemplates = partitionKeyLevels
            .Select((level, i) => Compile(level, hierarchical ? string.Create(CultureInfo.InvariantCulture, $"Loader:PartitionKey (level {i + 1}, {levelPaths[i]})") : "Loader:PartitionKey", index, problems, format))
            .ToArray();
        var rowKeyTemplate = Compile(rowKey, "Loader:RowKey", index, problems, format);
        if (problems.Count > 0)
        {
            throw new InputHeaderException(string.Join(Environment.NewLine, problems) + Environment.NewLine
                + $"{FormatChoice.ColumnWordsOf(format).ListLabel}: {string.Join(", ", header.Select(h => $"'{InputText.Escape(h)}'"))}");
        }

        columns.Sort((a, b) => a.Index.CompareTo(b.Index));
        return new MappingPlan(header, levelTemplates!, levelNames, rowKeyTemplate!, [.. columns], [.. index.Values.Order()]);
    }

    /// <summary>Why a column the settings name is not there: the input's columns lack it (and the name it may have meant), or it is a rejects file's own.</summary>
    private static string Missing(string column, Dictionary<string, int> index, InputFormat format)
    {
        if (RejectColumns.IsReserved(column))
        {
            return "which is a column the rejects file adds: the loader reserves its name and never loads it";
        }

        var meant = NearestName.Of(column, index.Keys) is { } nearest ? $" (did you mean '{InputText.Escape(nearest)}'?)" : "";
        return $"which the {FormatChoice.ColumnWordsOf(format).Holder} does not have{meant}";
    }

    /// <summary>
    /// Names that would make a property both a value and an object: a written column (<c>address</c>) and another column or
    /// a property the service keeps (the id, a partition key path such as <c>customer.id</c>) that nests under it
    /// (<c>address.city</c>).
    /// </summary>
    private static IEnumerable<string> PathConflicts(List<WrittenColumn> columns, IReadOnlySet<string> systemNames, string separator)
    {
        var written = columns.Select(column => column.Name).ToHashSet(StringComparer.Ordinal);
        var names = written.Concat(systemNames.Where(name => !written.Contains(name))).Order(StringComparer.Ordinal).ToList();
        foreach (var outer in names)
        {
            foreach (var inner in names.Where(name => name.StartsWith(outer + separator, StringComparison.Ordinal)))
            {
                if (!written.Contains(outer) && !written.Contains(inner))
                {
                    continue;
                }

                var what = (written.Contains(outer) ? "column" : "the id, partition key or system property") + $" '{InputText.Escape(outer)}' and " + (written.Contains(inner) ? "column" : "the id, partition key or system property") + $" '{InputText.Escape(inner)}'";
                yield return $"{what} cannot both be written: '{InputText.Escape(outer)}' would be a value and an object holding '{InputText.Escape(inner[(outer.Length + separator.Length)..])}' (the path separator '{separator}', Loader:Cosmos:PathSeparator, nests names)";
            }
        }
    }

    private static CompiledKeyTemplate? Compile(KeyTemplate template, string setting, Dictionary<string, int> index, List<string> problems, InputFormat format)
    {
        foreach (var missing in template.Columns.Where(column => !index.ContainsKey(column)))
        {
            problems.Add($"{setting} '{template.Text}' uses column '{missing}', {Missing(missing, index, format)}");
        }

        return template.Columns.All(index.ContainsKey) ? CompiledKeyTemplate.Compile(template, index) : null;
    }
}
