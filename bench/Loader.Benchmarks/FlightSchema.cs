using Loader.Abstractions;
using Loader.DataGen;

namespace Loader.Benchmarks;

/// <summary>How every benchmark loads DataGen's flight CSVs: keys that are unique per row, and typed columns.</summary>
internal static class FlightSchema
{
    public const string Table = "flights";

    public const string PartitionKey = "{dest}";

    /// <summary>The one column the partition key is made of.</summary>
    public const string PartitionColumn = "dest";

    public const string RowKey = "{year}-{month}-{day}-{carrier}-{flight}";

    /// <summary>The columns <see cref="RowKey"/> joins with '-', in order.</summary>
    public static IReadOnlyList<string> RowKeyColumns { get; } = RowKey.Split('-').Select(part => part.Trim('{', '}')).ToArray();

    private static readonly string[] s_int32Columns = ["year", "month", "day", "flight", "dep_delay", "arr_delay", "distance"];

    /// <summary>Types of the typed columns; the measurement columns m1..mN depend on how many columns the file has.</summary>
    public static IReadOnlyDictionary<string, ColumnType> ColumnTypes(int columns)
    {
        var types = new Dictionary<string, ColumnType>(StringComparer.Ordinal);
        foreach (var name in s_int32Columns)
        {
            types[name] = ColumnType.Int32;
        }

        types["cancelled"] = ColumnType.Boolean;
        for (var m = 1; m <= columns - GeneratorOptions.KeyColumns; m++)
        {
            types[FormattableString.Invariant($"m{m}")] = ColumnType.Double;
        }

        return types;
    }
}
