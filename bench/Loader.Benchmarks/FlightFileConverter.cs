using System.Globalization;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;
using Parquet;
using Parquet.Schema;

namespace Loader.Benchmarks;

/// <summary>
/// A flight CSV (DataGen's: no quoted fields, an empty cell where a value is missing) written again as JSON Lines and as
/// Parquet with the loader's column types, so the formats benchmark loads the same rows in each. JSON Lines: numbers as
/// numbers, an empty cell left out. Parquet: snappy, typed columns (Int32, Boolean, Double, String), a missing value a null.
/// </summary>
internal static class FlightFileConverter
{
    /// <summary>pyarrow's default row group: 1,048,576 rows (Parquet.Net's writer has none of its own).</summary>
    public const int DefaultRowGroupRows = 1024 * 1024;

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

    public static async Task ToParquetAsync(string csv, string path, IReadOnlyDictionary<string, ColumnType> types, CancellationToken cancellationToken)
    {
        using var reader = new StreamReader(csv, Encoding.UTF8);
        var header = reader.ReadLine()!.Split(',');
        var kinds = header.Select(name => types.GetValueOrDefault(name, ColumnType.String)).ToArray();
        var fields = header.Select((name, i) => kinds[i] switch
        {
            ColumnType.Int32 => (DataField)new DataField<int?>(name),
            ColumnType.Double => new DataField<double?>(name),
            ColumnType.Boolean => new DataField<bool?>(name),
            _ => new DataField<string>(name, nullable: true),
        }).ToArray();
        await using var file = File.Create(path);
        await using var writer = await ParquetWriter.CreateAsync(new ParquetSchema(fields), file, new ParquetOptions { CompressionMethod = CompressionMethod.Snappy }, cancellationToken: cancellationToken);
        var rows = new List<string[]>(DefaultRowGroupRows);
        while (true)
        {
            var line = reader.ReadLine();
            if (line is not null)
            {
                rows.Add(line.Split(','));
            }

            if (rows.Count == DefaultRowGroupRows || (line is null && rows.Count > 0))
            {
                using var group = writer.CreateRowGroup();
                for (var i = 0; i < header.Length; i++)
                {
                    var column = i;
                    switch (kinds[i])
                    {
                        case ColumnType.Int32:
                            await group.WriteAsync<int>(fields[i], rows.Select(row => row[column].Length == 0 ? (int?)null : int.Parse(row[column], CultureInfo.InvariantCulture)).ToArray().AsMemory(), cancellationToken: cancellationToken);
                            break;
                        case ColumnType.Double:
                            await group.WriteAsync<double>(fields[i], rows.Select(row => row[column].Length == 0 ? (double?)null : double.Parse(row[column], CultureInfo.InvariantCulture)).ToArray().AsMemory(), cancellationToken: cancellationToken);
                            break;
                        case ColumnType.Boolean:
                            await group.WriteAsync<bool>(fields[i], rows.Select(row => row[column].Length == 0 ? (bool?)null : row[column] == "true").ToArray().AsMemory(), cancellationToken: cancellationToken);
                            break;
                        default:
                            await group.WriteAsync(fields[i], rows.Select(row => row[column].Length == 0 ? null : row[column]).ToArray());
                            break;
                    }
                }

                rows.Clear();
            }

            if (line is null)
            {
                break;
            }
        }
    }
}
