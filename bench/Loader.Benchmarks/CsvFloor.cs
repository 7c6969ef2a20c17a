using System.Buffers.Text;
using System.Globalization;
using System.Text;
using CsvHelper;
using Loader.Abstractions;

namespace Loader.Benchmarks;

/// <summary>
/// The dry run's second baseline, the least any loader of this file does before it batches, checks or sends a row:
/// CsvHelper reading the same CSV, each typed column parsed to its type by the runtime's own UTF-8 parsers (the
/// <see cref="FlightSchema"/> types the loader is given), the text columns made strings, and the two keys rendered from
/// their templates; in this process, warm, on one thread. The loader's CPU per row over it is what batching, checking
/// the store's rules, dispatching and the process itself cost.
/// </summary>
internal static class CsvFloor
{
    public static CsvBaselineSample Read(string csvPath, int columns, int repeat) => CsvBaseline.Measure(csvPath, repeat, csv =>
    {
        var header = csv.Headers.Select((name, index) => (name, index)).ToDictionary(pair => pair.name, pair => pair.index, StringComparer.Ordinal);
        var types = FlightSchema.ColumnTypes(columns);
        var typed = types.Select(pair => (Index: header[pair.Key], pair.Value)).ToArray();
        var text = header.Where(pair => !types.ContainsKey(pair.Key)).Select(pair => pair.Value).ToArray();
        var partition = header[FlightSchema.PartitionColumn];
        var rowKey = FlightSchema.RowKeyColumns.Select(name => header[name]).ToArray();
        var key = new char[256];
        return record =>
        {
            long checksum = 0;
            foreach (var (index, type) in typed)
            {
                checksum += Parse(record.GetSpan(index), type);
            }

            foreach (var index in text)
            {
                checksum += record.GetString(index).Length;
            }

            return checksum + record.GetString(partition).Length + RowKey(record, rowKey, key).Length;
        };
    });

    private static long Parse(ReadOnlySpan<byte> utf8, ColumnType type) => type switch
    {
        ColumnType.Int32 => int.TryParse(utf8, NumberStyles.Integer, CultureInfo.InvariantCulture, out var number) ? number : 0,
        ColumnType.Double => double.TryParse(utf8, NumberStyles.Float, CultureInfo.InvariantCulture, out var real) ? (long)real : 0,
        ColumnType.Boolean => Utf8Parser.TryParse(utf8, out bool flag, out _) && flag ? 1 : 0,
        _ => utf8.Length,
    };

    /// <summary>The row key, its columns joined by '-' as the template spells them.</summary>
    private static string RowKey(CsvReader csv, int[] columns, char[] buffer)
    {
        var length = 0;
        foreach (var column in columns)
        {
            if (length > 0)
            {
                buffer[length++] = '-';
            }

            length += Encoding.UTF8.GetChars(csv.GetSpan(column), buffer.AsSpan(length));
        }

        return new string(buffer, 0, length);
    }
}
