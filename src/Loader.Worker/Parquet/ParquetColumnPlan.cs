using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Records;
using Parquet.Data;
using Parquet.Meta;
using Parquet.Schema;

namespace Loader.Worker.Parquet;

/// <summary>
/// The columns of a Parquet file as the loader writes them, decided from its schema before a row is read. A column of a
/// type no store type holds (INTERVAL, or a list or map holding one) is refused here, naming it, so the load stops at
/// start (exit 2) rather than dropping it.
/// </summary>
internal sealed class ParquetColumnPlan
{
    private ParquetColumnPlan(IReadOnlyList<ParquetColumn> columns) => Columns = columns;

    /// <summary>The columns in schema order.</summary>
    public IReadOnlyList<ParquetColumn> Columns { get; }

    /// <summary>The columns' names, in order: what templates and <c>Loader:Columns</c> are checked against.</summary>
    public IReadOnlyList<string> Names => Columns.Select(column => column.Name).ToArray();

    /// <summary>Plans the columns of <paramref name="schema"/>; throws <see cref="InputHeaderException"/> naming the first column that cannot be written.</summary>
    /// <param name="schema">The file's schema.</param>
    /// <param name="file">The file, as messages name it.</param>
    /// <param name="decimals">What DECIMAL columns are written as.</param>
    /// <param name="pathSeparator">Joins the names of a struct and its fields (<c>address.city</c>).</param>
    /// <param name="skipped">Columns <c>Loader:SkipColumns</c> leaves out: one of a type no store holds is planned unread rather than refused.</param>
    public static ParquetColumnPlan Create(ParquetSchema schema, string file, ParquetDecimalMode decimals, string pathSeparator, IReadOnlySet<string>? skipped = null)
    {
        ArgumentNullException.ThrowIfNull(schema);
        var columns = new List<ParquetColumn>();
        var refused = new List<string>();
        foreach (var field in schema.Fields)
        {
            Add(field, prefix: null, columns, refused, decimals, pathSeparator, skipped ?? new HashSet<string>());
        }

        if (refused.Count > 0)
        {
            throw new InputHeaderException($"'{file}' has {(refused.Count == 1 ? "a column" : $"{refused.Count} columns")} the loader cannot write: {string.Join("; ", refused)}.");
        }

        if (columns.Count == 0)
        {
            throw new InputHeaderException($"'{file}' has no columns.");
        }

        return new ParquetColumnPlan(columns);
    }

    private static void Add(Field field, string? prefix, List<ParquetColumn> columns, List<string> refused, ParquetDecimalMode decimals, string separator, IReadOnlySet<string> skipped)
    {
        var name = prefix is null ? field.Name : prefix + separator + field.Name;
        var refusedBefore = refused.Count;
        switch (field)
        {
            case DataField { IsArray: true } repeated:
                AddNested(name, repeated, columns, refused, decimals);
                break;
            case DataField leaf:
                AddLeaf(name, leaf, columns, refused, decimals);
                break;
            case StructField group:
                foreach (var child in group.Fields)
                {
                    Add(child, name, columns, refused, decimals, separator, skipped);
                }

                break;
            case ListField or MapField:
                AddNested(name, field, columns, refused, decimals);
                break;
            default:
                refused.Add($"'{name}' is a {field.SchemaType} field, which no store type holds");
                break;
        }

        if (field is not StructField && refused.Count > refusedBefore && skipped.Contains(name))
        {
            // Left out by the settings anyway: kept in the plan, so templates and checks know its name, but never read.
            refused.RemoveRange(refusedBefore, refused.Count - refusedBefore);
            columns.Add(new ParquetColumn(name, FirstLeaf(field), ParquetValueKind.String, ColumnType.String, "a type no store holds, left out") { Unread = true });
        }
    }

    private static DataField FirstLeaf(Field field) => field switch
    {
        DataField leaf => leaf,
        StructField group => FirstLeaf(group.Fields[0]),
        ListField list => FirstLeaf(list.Item),
        MapField map => FirstLeaf(map.Key),
        _ => throw new InvalidOperationException($"'{field.Name}' has no leaf"),
    };

    private static void AddLeaf(string name, DataField leaf, List<ParquetColumn> columns, List<string> refused, ParquetDecimalMode decimals)
    {
        if (KindOf(leaf) is not { } kind)
        {
            refused.Add($"'{name}' is {Describe(leaf)}, which no store type holds");
            return;
        }

        columns.Add(new ParquetColumn(name, leaf, kind, TypeOf(kind, decimals), Describe(leaf)));
    }

    /// <summary>
    /// A list or map, of single values or holding structs, lists or maps at any depth, or a repeated leaf: written as the
    /// JSON it spells, assembled from its leaves' levels. A leaf no store type holds, or a repeated field inside a LIST or
    /// MAP group that is not its element, refuses the column.
    /// </summary>
    private static void AddNested(string name, Field field, List<ParquetColumn> columns, List<string> refused, ParquetDecimalMode decimals)
    {
        var leaves = new List<ParquetColumn>();
        var problems = new List<string>();
        var root = field is DataField repeated ? RepeatedLeaf(repeated, leaves, problems, decimals) : Node(field, leaves, problems, decimals);
        if (problems.Count > 0 || leaves.Count == 0)
        {
            refused.Add($"'{name}' holds {(problems.Count > 0 ? string.Join(", ", problems) : "no values")}, which no store type holds");
            return;
        }

        columns.Add(new ParquetColumn(name, leaves[0].Leaf, leaves[0].Kind, ColumnType.Json, Describe(root, leaves))
        {
            Nested = root,
            NestedLeaves = leaves,
        });
    }

    /// <summary>
    /// A repeated leaf outside a LIST group (the legacy form of a list of single values): an entry where the leaf has a
    /// value; a repeated field is never null itself, so one level below is an empty list, and further down a parent is null.
    /// </summary>
    private static ParquetNestedNode RepeatedLeaf(DataField leaf, List<ParquetColumn> leaves, List<string> problems, ParquetDecimalMode decimals)
    {
        if (KindOf(leaf) is not { } kind)
        {
            problems.Add($"'{leaf.Name}' of {Describe(leaf)}");
            return new ParquetNestedNode(ParquetNestedKind.Leaf, leaf.Name, 0, 0, 0, 0, []);
        }

        leaves.Add(new ParquetColumn(leaf.Name, leaf, kind, TypeOf(kind, decimals), Describe(leaf)));
        var values = new ParquetNestedNode(ParquetNestedKind.Leaf, leaf.Name, leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel, 0, 1, []);
        return new ParquetNestedNode(ParquetNestedKind.List, leaf.Name, leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel, 0, 1, [values]);
    }

    private static ParquetNestedNode Node(Field field, List<ParquetColumn> leaves, List<string> problems, ParquetDecimalMode decimals)
    {
        var first = leaves.Count;
        switch (field)
        {
            case DataField { IsArray: false } leaf when KindOf(leaf) is { } kind:
                leaves.Add(new ParquetColumn(leaf.Name, leaf, kind, TypeOf(kind, decimals), Describe(leaf)));
                return new ParquetNestedNode(ParquetNestedKind.Leaf, leaf.Name, leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel, first, leaves.Count, []);
            case DataField leaf:
                problems.Add(leaf.IsArray ? $"'{leaf.Name}' repeated outside a LIST group" : $"'{leaf.Name}' of {Describe(leaf)}");
                return new ParquetNestedNode(ParquetNestedKind.Leaf, leaf.Name, leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel, first, first, []);
            case StructField group:
                var fields = group.Fields.Select(child => Node(child, leaves, problems, decimals)).ToList();
                return new ParquetNestedNode(ParquetNestedKind.Struct, group.Name, group.MaxDefinitionLevel, group.MaxRepetitionLevel, first, leaves.Count, fields);
            case ListField list:
                var element = Node(list.Item, leaves, problems, decimals);
                return new ParquetNestedNode(ParquetNestedKind.List, list.Name, list.MaxDefinitionLevel, list.MaxRepetitionLevel, first, leaves.Count, [element]);
            case MapField { Key: DataField { IsArray: false } } map:
                var key = Node(map.Key, leaves, problems, decimals);
                var value = Node(map.Value, leaves, problems, decimals);
                return new ParquetNestedNode(ParquetNestedKind.Map, map.Name, map.MaxDefinitionLevel, map.MaxRepetitionLevel, first, leaves.Count, [key, value]);
            default:
                problems.Add(field is MapField ? $"'{field.Name}' a MAP keyed by more than single values" : $"'{field.Name}' a {field.SchemaType} field");
                return new ParquetNestedNode(ParquetNestedKind.Leaf, field.Name, 0, 0, first, first, []);
        }
    }

    private static string Describe(ParquetNestedNode node, IReadOnlyList<ParquetColumn> leaves) => node.Kind switch
    {
        ParquetNestedKind.Leaf => leaves[node.FirstLeaf].ParquetType,
        ParquetNestedKind.Struct => $"STRUCT<{string.Join(", ", node.Children.Select(child => $"{child.Name} {Describe(child, leaves)}"))}>",
        ParquetNestedKind.List => $"LIST<{Describe(node.Children[0], leaves)}>",
        _ => $"MAP<{Describe(node.Children[0], leaves)}, {Describe(node.Children[1], leaves)}>",
    };

    /// <summary>The store type a single value of <paramref name="kind"/> is written as.</summary>
    internal static ColumnType TypeOf(ParquetValueKind kind, ParquetDecimalMode decimals) => kind switch
    {
        ParquetValueKind.Boolean => ColumnType.Boolean,
        ParquetValueKind.SByte or ParquetValueKind.Byte or ParquetValueKind.Int16 or ParquetValueKind.UInt16 or ParquetValueKind.Int32 => ColumnType.Int32,
        ParquetValueKind.UInt32 or ParquetValueKind.Int64 or ParquetValueKind.UInt64 => ColumnType.Int64,
        ParquetValueKind.Half or ParquetValueKind.Single or ParquetValueKind.Double => ColumnType.Double,
        ParquetValueKind.Decimal or ParquetValueKind.BigDecimal => decimals == ParquetDecimalMode.Double ? ColumnType.Double : ColumnType.String,
        ParquetValueKind.Timestamp or ParquetValueKind.Date => ColumnType.DateTime,
        ParquetValueKind.Guid => ColumnType.Guid,
        ParquetValueKind.Binary => ColumnType.Binary,
        ParquetValueKind.String or ParquetValueKind.TimeMillis or ParquetValueKind.TimeMicros or ParquetValueKind.TimeNanos => ColumnType.String,
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "unknown Parquet value kind"),
    };

    private static ParquetValueKind? KindOf(DataField leaf)
    {
        if (leaf is TimeDataField time)
        {
            return time.Precision switch
            {
                TimeUnitPrecision.Millis => ParquetValueKind.TimeMillis,
                TimeUnitPrecision.Micros => ParquetValueKind.TimeMicros,
                TimeUnitPrecision.Nanos => ParquetValueKind.TimeNanos,
                _ => null,
            };
        }

        if (leaf.SchemaElement is { } element && element.LogicalType?.TIME is null
            && element.ConvertedType is ConvertedType.TIME_MILLIS)
        {
            return ParquetValueKind.TimeMillis;
        }

        if (leaf.SchemaElement?.ConvertedType is ConvertedType.TIME_MICROS)
        {
            return ParquetValueKind.TimeMicros;
        }

        var type = leaf.ClrType;
        return type == typeof(bool) ? ParquetValueKind.Boolean
            : type == typeof(sbyte) ? ParquetValueKind.SByte
            : type == typeof(byte) ? ParquetValueKind.Byte
            : type == typeof(short) ? ParquetValueKind.Int16
            : type == typeof(ushort) ? ParquetValueKind.UInt16
            : type == typeof(int) ? ParquetValueKind.Int32
            : type == typeof(uint) ? ParquetValueKind.UInt32
            : type == typeof(long) ? ParquetValueKind.Int64
            : type == typeof(ulong) ? ParquetValueKind.UInt64
            : type == typeof(Half) ? ParquetValueKind.Half
            : type == typeof(float) ? ParquetValueKind.Single
            : type == typeof(double) ? ParquetValueKind.Double
            : type == typeof(decimal) ? ParquetValueKind.Decimal
            : type == typeof(BigDecimal) ? ParquetValueKind.BigDecimal
            : type == typeof(ReadOnlyMemory<char>) ? ParquetValueKind.String
            : type == typeof(ReadOnlyMemory<byte>) ? ParquetValueKind.Binary
            : type == typeof(DateTime) ? ParquetValueKind.Timestamp
            : type == typeof(DateOnly) ? ParquetValueKind.Date
            : type == typeof(Guid) ? ParquetValueKind.Guid
            : null;
    }

    /// <summary>The leaf's Parquet type as a user reading the file's schema would name it.</summary>
    private static string Describe(DataField leaf)
    {
        var element = leaf.SchemaElement;
        if (element?.LogicalType?.DECIMAL is { } dec)
        {
            return string.Create(CultureInfo.InvariantCulture, $"DECIMAL({dec.Precision},{dec.Scale})");
        }

        if (element?.ConvertedType == ConvertedType.DECIMAL)
        {
            return string.Create(CultureInfo.InvariantCulture, $"DECIMAL({element.Precision},{element.Scale})");
        }

        if (element?.ConvertedType == ConvertedType.INTERVAL)
        {
            return "INTERVAL";
        }

        var logical = element?.LogicalType switch
        {
            { STRING: not null } => "STRING",
            { ENUM: not null } => "ENUM",
            { UUID: not null } => "UUID",
            { DATE: not null } => "DATE",
            { TIME: not null } => "TIME",
            { TIMESTAMP: not null } => "TIMESTAMP",
            { FLOAT16: not null } => "FLOAT16",
            { JSON: not null } => "JSON",
            { BSON: not null } => "BSON",
            { INTEGER: { } integer } => string.Create(CultureInfo.InvariantCulture, $"INT({integer.BitWidth},{(integer.IsSigned ? "signed" : "unsigned")})"),
            _ => null,
        };
        return logical ?? element?.Type?.ToString() ?? leaf.ClrType.Name;
    }
}
