using System.Globalization;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Benchmarks;

/// <summary>
/// A flight CSV (DataGen's: no quoted fields, an empty cell where a value is missing) written again as JSON Lines and,
/// through DuckDB, as Parquet, with the loader's column types, so the formats benchmark loads the same rows in each.
/// JSON Lines: numbers as numbers, an empty cell left out. Parquet: typed columns (Int32, Boolean, Double, String), a
/// missing value a null.
/// </summary>
internal static class FlightFileConverter
{
    public static void ToJsonLines(string csv, string path, IReadOnlyDictionary<string, ColumnType> types)
    {
        using var reader = new StreamReader(csv, Encoding.UTF8);
        var header = reader.ReadLine()!.Split(',');
        using var output = new BufferedStream(File.Create(path), 1 << 20);
        using var writer = new Utf8JsonWriter(output, new JsonWriterOptions { SkipValidation = true });
        var newline = "\n"u8.ToArray();
        while (reader.ReadLine() is { } line)
        {
            var cells = line.Split(',');
            writer.WriteStartObject();
            for (var i = 0; i < header.Length; i++)
            {
                if (cells[i].Length == 0)
                {
                    continue;
                }

                switch (types.GetValueOrDefault(header[i], ColumnType.String))
                {
                    case ColumnType.Int32:
                        writer.WriteNumber(header[i], int.Parse(cells[i], CultureInfo.InvariantCulture));
                        break;
                    case ColumnType.Double:
                        writer.WritePropertyName(header[i]);
                        writer.WriteRawValue(cells[i], skipInputValidation: true);
                        break;
                    case ColumnType.Boolean:
                        writer.WriteBoolean(header[i], cells[i] == "true");
                        break;
                    default:
                        writer.WriteString(header[i], cells[i]);
                        break;
                }
            }

            writer.WriteEndObject();
            writer.Flush();
            writer.Reset();
            output.Write(newline);
        }
    }

    /// <summary>
    /// The DuckDB query that reads the CSV with the loader's column types (an empty cell a null), for
    /// <see cref="DuckDbParquet"/> to write as Parquet the way data tools lay it out.
    /// </summary>
    public static string DuckDbSelect(string csv, IReadOnlyDictionary<string, ColumnType> types)
    {
        string header;
        using (var reader = new StreamReader(csv, Encoding.UTF8))
        {
            header = reader.ReadLine()!;
        }

        var columns = header.Split(',').Select(name => $"'{name}': '{DuckDbType(types.GetValueOrDefault(name, ColumnType.String))}'");
        return $"SELECT * FROM read_csv('{csv.Replace("'", "''", StringComparison.Ordinal)}', header = true, delim = ',', quote = '', columns = {{{string.Join(", ", columns)}}})";
    }

    private static string DuckDbType(ColumnType type) => type switch
    {
        ColumnType.Int32 => "INTEGER",
        ColumnType.Double => "DOUBLE",
        ColumnType.Boolean => "BOOLEAN",
        _ => "VARCHAR",
    };
}
