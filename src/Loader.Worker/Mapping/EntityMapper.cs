using System.Text;
using System.Text.Unicode;
using Loader.Abstractions;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.Mapping;

/// <summary>
/// Turns a well-formed record into an entity: renders the keys, types the cells (straight from their UTF-8
/// bytes), drops empty ones, and asks the backend whether it would accept the result. A field its format types (a JSON
/// number, boolean or nested value) keeps that type unless <c>Loader:Columns</c> gives one; fields beyond the columns (a
/// JSON property the first object lacked) are written too, by their own type. Holds scratch buffers, so one instance per
/// thread (the read stage maps on several).
/// </summary>
/// <param name="plan">How the record's columns become keys and properties.</param>
/// <param name="backend">Whether the backend would accept the entity.</param>
/// <param name="converter">Types the cells.</param>
/// <param name="textEncoding">The input's encoding as a reject names it: text that is not valid in it reaches the mapper as bytes that are not UTF-8.</param>
internal sealed class EntityMapper(MappingPlan plan, IBackendAdapter backend, ColumnConverter converter, string textEncoding = "UTF-8")
{
    private EntityProperty[] _scratch = new EntityProperty[plan.Columns.Count];

    // Strings of the current record, made at most once per cell (a key column is often also a property).
    private readonly string?[] _strings = new string?[plan.Header.Count];

    private readonly RecordTextSlab _recordTexts = new();

    // The levels of the current record's partition key.
    private readonly string[] _levels = new string[plan.PartitionKeyTemplates.Length];

    /// <summary>Maps the record the reader stands on.</summary>
    public MapResult Map<TRecord>(in TRecord record)
        where TRecord : struct, IRecordFields
    {
        var origin = record.Origin;
        if (!record.IsTyped && !Utf8.IsValid(record.Raw))
        {
            // Its text cannot be written out as it was, nor its fields: the rejects file keeps the text, fields left empty.
            return MapResult.RejectUnsplit(origin, $"{InvalidPlace(record)} holds bytes that are not valid {textEncoding}", Encoding.UTF8.GetString(record.Raw));
        }

        if (IsUnsplitReject(record))
        {
            return Reject(record, origin, $"the record could not be split into the input's columns when it was rejected: its columns are empty and its text is in column '{RejectColumns.Record}'; copy its values into the columns to load it");
        }

        Array.Clear(_strings);
        var partitionKey = RenderPartitionKey(record, out var keyProblem);
        if (partitionKey is null)
        {
            return Reject(record, origin, keyProblem!);
        }

        var rowKey = plan.RowKey.Render(record, _strings, out var emptyColumn);
        if (rowKey is null)
        {
            return Reject(record, origin, EmptyKeyColumn("row key", "Loader:RowKey", plan.RowKey, emptyColumn!));
        }

        var count = 0;
        foreach (var column in plan.WrittenColumns)
        {
            if (record.IsTyped)
            {
                var typed = record.GetTyped(column.Index);
                if (typed.Problem is { } problem)
                {
                    return Reject(record, origin, problem);
                }

                if (!typed.HasValue)
                {
                    continue;
                }

                if (!TryRetype(column, typed.Property, out _scratch[count], out var retypeProblem))
                {
                    return Reject(record, origin, retypeProblem!);
                }

                count++;
                continue;
            }

            var utf8 = record.GetSpan(column.Index);
            if (utf8.IsEmpty)
            {
                continue;
            }

            EntityProperty property;
            if (!column.Typed && record.KindOf(column.Index) is not FieldKind.Text and var kind)
            {
                if (!FieldTypes.TryNatural(column.Property, kind, utf8, out property))
                {
                    return Reject(record, origin, $"column '{column.Name}': '{Shorten(Encoding.UTF8.GetString(utf8))}' {NotHeld(column.Name)}");
                }
            }
            else if (column.Type == ColumnType.String)
            {
                property = EntityProperty.FromString(column.Property, _strings[column.Index] ??= record.GetString(column.Index));
            }
            else if (!converter.TryConvert(column.Property, column.Type, utf8, out property))
            {
                return Reject(record, origin, $"column '{column.Name}': '{Shorten(Encoding.UTF8.GetString(utf8))}' {converter.Explain(column.Type, utf8)}");
            }

            _scratch[count++] = property;
        }

        if (record.ExtraCount > 0 && AddExtras(record, ref count) is { } extraProblem)
        {
            return Reject(record, origin, extraProblem);
        }

        var properties = _scratch.AsSpan(0, count);
        var inspection = backend.Inspect(partitionKey, rowKey, properties);
        return inspection.Violation is { } violation
            ? Reject(record, origin, violation)
            : MapResult.Accept(new LoadEntity(partitionKey, rowKey, properties.ToArray(), origin, inspection.PayloadBytes, record.IsTyped ? default : _recordTexts.Keep(record.Raw)));
    }

    /// <summary>
    /// A typed field (Parquet) as its column is written: as read, unless <c>Loader:Columns</c> gives another type, to which
    /// text converts as a CSV cell does, Int32 widens to Int64 or Double, and any value turns into its text (which
    /// combinations a setting may ask for is checked at start).
    /// </summary>
    private bool TryRetype(MappingPlan.WrittenColumn column, EntityProperty value, out EntityProperty property, out string? problem)
    {
        problem = null;
        if (!column.Typed || value.Type == column.Type)
        {
            property = value;
            return true;
        }

        switch (column.Type)
        {
            case ColumnType.String:
                property = EntityProperty.FromString(column.Property, TypedText.Of(value));
                return true;
            case ColumnType.Int64 when value.Type == ColumnType.Int32:
                property = EntityProperty.FromInt64(column.Property, value.AsInt32());
                return true;
            case ColumnType.Double when value.Type == ColumnType.Int32:
                property = EntityProperty.FromDouble(column.Property, value.AsInt32());
                return true;
        }

        var utf8 = Encoding.UTF8.GetBytes(TypedText.Of(value));
        if (converter.TryConvert(column.Property, column.Type, utf8, out property))
        {
            return true;
        }

        problem = $"column '{column.Name}': '{Shorten(Encoding.UTF8.GetString(utf8))}' {converter.Explain(column.Type, utf8)}";
        return false;
    }

    /// <summary>Adds the record's fields beyond the columns, typed as their format types them; the reason when one cannot be written.</summary>
    private string? AddExtras<TRecord>(in TRecord record, ref int count)
        where TRecord : struct, IRecordFields
    {
        var systemNames = backend.Limits.SystemPropertyNames;
        for (var field = record.FieldCount; field < record.FieldCount + record.ExtraCount; field++)
        {
            var utf8 = record.GetSpan(field);
            var name = record.ExtraName(field);
            if (utf8.IsEmpty || systemNames.Contains(name) || RejectColumns.IsReserved(name))
            {
                continue;
            }

            if (backend.CheckPropertyName(name) is { } problem)
            {
                return $"property '{InputText.Escape(name)}' (not in the first record) is not a valid property name: it {problem}";
            }

            var kind = record.KindOf(field);
            EntityProperty property;
            if (kind == FieldKind.Text)
            {
                property = EntityProperty.FromString(PropertyName.OfRow(name), record.GetString(field));
            }
            else if (!FieldTypes.TryNatural(PropertyName.OfRow(name), kind, utf8, out property))
            {
                return $"property '{InputText.Escape(name)}': '{Shorten(Encoding.UTF8.GetString(utf8))}' {NotHeld(name)}";
            }

            if (count == _scratch.Length)
            {
                Array.Resize(ref _scratch, Math.Max(4, _scratch.Length * 2));
            }

            _scratch[count++] = property;
        }

        return null;
    }

    /// <summary>
    /// The partition key: its one template's value, or a hierarchical key's levels joined (<see cref="PartitionKeyLevels"/>);
    /// null and why when a level has an empty column, or holds the character the levels are joined with.
    /// </summary>
    private string? RenderPartitionKey<TRecord>(in TRecord record, out string? problem)
        where TRecord : struct, IRecordFields
    {
        problem = null;
        var templates = plan.PartitionKeyTemplates;
        for (var i = 0; i < templates.Length; i++)
        {
            var level = templates[i].Render(record, _strings, out var emptyColumn);
            if (level is null)
            {
                problem = EmptyKeyColumn(plan.PartitionKeyLevelNames[i], "Loader:PartitionKey", templates[i], emptyColumn!);
                return null;
            }

            if (templates.Length > 1 && level.Contains(PartitionKeyLevels.Separator, StringComparison.Ordinal))
            {
                problem = $"{plan.PartitionKeyLevelNames[i]} holds control character U+001F, with which the loader joins the levels of a hierarchical key";
                return null;
            }

            _levels[i] = level;
        }

        return templates.Length == 1 ? _levels[0] : PartitionKeyLevels.Join(_levels);
    }

    /// <summary>
    /// A key made of one column is empty when the column is; one made of several is refused when any of them is empty, as
    /// the key it would make could be another row's (<c>{a}{b}</c> with 'ab' and '' is <c>{a}{b}</c> with 'a' and 'b').
    /// </summary>
    private static string EmptyKeyColumn(string key, string setting, CompiledKeyTemplate template, string column) => template.SingleColumn
        ? $"{key} is empty: column '{column}' is empty"
        : $"{key}: column '{column}' is empty, and every column of {setting} '{template.Text}' must have a value";

    /// <summary>A row of a rejects file read back whose record was kept as its text only, and whose columns are still empty.</summary>
    private bool IsUnsplitReject<TRecord>(in TRecord record)
        where TRecord : struct, IRecordFields
    {
        if (plan.RejectedRecordColumn < 0 || record.GetSpan(plan.RejectedRecordColumn).IsEmpty)
        {
            return false;
        }

        foreach (var column in plan.DataColumns)
        {
            if (!record.GetSpan(column).IsEmpty)
            {
                return false;
            }
        }

        return true;
    }

    // A typed record's text (a Parquet row) is a JSON object of its columns, which the JSON Lines rejects file splits as it does a JSON line.
    private static MapResult Reject<TRecord>(in TRecord record, RowOrigin origin, string reason)
        where TRecord : struct, IRecordFields =>
        MapResult.Reject(origin, reason, Encoding.UTF8.GetString(record.Raw));

    /// <summary>The first field holding bytes that are not valid, or (JSON Lines) the property name that does.</summary>
    private string InvalidPlace<TRecord>(in TRecord record)
        where TRecord : struct, IRecordFields
    {
        for (var i = 0; i < record.FieldCount + record.ExtraCount; i++)
        {
            if (!Utf8.IsValid(record.GetSpan(i)))
            {
                return i < record.FieldCount ? $"column '{plan.Header[i]}'" : $"property '{InputText.Escape(record.ExtraName(i))}'";
            }
        }

        return "a property name";
    }

    /// <summary>Why a JSON number the loader types itself is refused: past a double, or digits a double would round.</summary>
    private static string NotHeld(string column) =>
        $"is not a number a Double holds exactly (past its range, or digits it would round); Loader:Columns:{column}=String keeps its digits";

    private static string Shorten(string text) => InputText.Escape(text.Length <= 40 ? text : text[..40] + "…");
}
