using System.Globalization;
using System.IO.Compression;
using Loader.Abstractions;
using Loader.DataGen;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// The first rows of the quick start's real flights (data/flights.csv.gz) as a plain CSV under bench/results/data,
/// leaving out the few rows broken on purpose (data/make-flights.sh), so that the loader and a baseline write the same rows.
/// </summary>
/// <param name="Path">The file.</param>
/// <param name="Rows">Its rows.</param>
/// <param name="DistinctKeys">Entities the table holds once every row is written: one per distinct key.</param>
internal sealed record FirstFlights(string Path, long Rows, long DistinctKeys)
{
    /// <summary>The flights' columns: DataGen's key columns, no measurement columns.</summary>
    public const int Columns = GeneratorOptions.KeyColumns;

    /// <summary>The columns <see cref="FlightSchema.RowKey"/> is made of.</summary>
    private static readonly string[] s_rowKeyColumns = ["year", "month", "day", "carrier", "flight"];

    public static string Source => System.IO.Path.Combine(RepositoryPaths.Root, "data", "flights.csv.gz");

    public static FirstFlights Write(long rows)
    {
        Directory.CreateDirectory(BenchPaths.Data);
        var path = System.IO.Path.Combine(BenchPaths.Data, Invariant($"flights-first-{rows}.csv"));
        using var input = new StreamReader(new GZipStream(File.OpenRead(Source), CompressionMode.Decompress));
        var header = input.ReadLine() ?? throw new InvalidDataException($"{Source} is empty");
        var columns = header.Split(',');
        var types = FlightSchema.ColumnTypes(Columns);
        var (destination, keyColumns) = (Array.IndexOf(columns, FlightSchema.PartitionColumn), s_rowKeyColumns.Select(name => Array.IndexOf(columns, name)).ToArray());
        var keys = new HashSet<string>(StringComparer.Ordinal);
        long written = 0;
        var temporary = path + ".tmp";
        using (var output = new StreamWriter(temporary))
        {
            output.WriteLine(header);
            while (written < rows && input.ReadLine() is { } line)
            {
                var fields = line.Split(',');
                if (Loads(fields, columns, types) && fields[destination].Length > 0)
                {
                    output.WriteLine(line);
                    keys.Add(fields[destination] + "|" + string.Join('-', keyColumns.Select(i => fields[i])));
                    written++;
                }
            }
        }

        if (written < rows)
        {
            throw new ArgumentException(Invariant($"--rows {rows:N0}: {Source} holds only {written:N0} rows the loader takes"));
        }

        File.Move(temporary, path, overwrite: true);
        return new FirstFlights(path, written, keys.Count);
    }

    /// <summary>Whether the loader takes the row as it is: every field there, unquoted, each typed one of its type.</summary>
    private static bool Loads(string[] fields, string[] columns, IReadOnlyDictionary<string, ColumnType> types) =>
        fields.Length == columns.Length
        && fields.All(field => !field.Contains('"', StringComparison.Ordinal))
        && columns.Select((name, i) => (name, i)).All(column => !types.TryGetValue(column.name, out var type) || type switch
        {
            ColumnType.Int32 => int.TryParse(fields[column.i], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _),
            ColumnType.Boolean => bool.TryParse(fields[column.i], out _),
            _ => true,
        });
}
