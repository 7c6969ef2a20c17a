using System.Globalization;
using Loader.Abstractions;
using ParquetSharp;

namespace Loader.Benchmarks;

/// <summary>
/// A flight CSV written again as Parquet by Apache Arrow's C++ writer (through ParquetSharp), the writer pyarrow wraps,
/// with pyarrow's defaults: row groups of 1,048,576 rows, data pages of 1 MiB, dictionary pages where they pay (falling
/// back to plain past 1 MiB), snappy. DuckDB writes one page per column chunk, so its row groups of that size hold pages
/// of 8-10 MiB, a layout pyarrow never writes. Typed as <see cref="FlightFileConverter.DuckDbSelect"/> types them: an
/// empty cell a null.
/// </summary>
internal static class ArrowParquetWriter
{
    public const int RowGroupRows = 1024 * 1024;

    public static void Write(string csv, string path, IReadOnlyDictionary<string, ColumnType> types)
    {
        using var reader = new StreamReader(csv, System.Text.Encoding.UTF8);
        var header = reader.ReadLine()!.Split(',');
        var buffers = header.Select(name => ColumnBuffer.For(name, types.GetValueOrDefault(name, ColumnType.String))).ToArray();
        using (var writer = new ParquetFileWriter(path, [.. buffers.Select(buffer => buffer.Column)], Compression.Snappy))
        {
            var rows = 0;
            while (reader.ReadLine() is { } line)
            {
                var cells = line.Split(',');
                for (var i = 0; i < buffers.Length; i++)
                {
                    buffers[i].Add(rows, cells[i]);
                }

                if (++rows == RowGroupRows)
                {
                    WriteGroup(writer, buffers, rows);
                    rows = 0;
                }
            }

            if (rows > 0)
            {
                WriteGroup(writer, buffers, rows);
            }

            writer.Close();
        }
    }

    private static void WriteGroup(ParquetFileWriter writer, ColumnBuffer[] buffers, int rows)
    {
        using var group = writer.AppendRowGroup();
        foreach (var buffer in buffers)
        {
            buffer.Write(group, rows);
        }
    }

    /// <summary>A row group's values of one column, parsed from its cells.</summary>
    private abstract class ColumnBuffer(Column column)
    {
        public Column Column { get; } = column;

        public static ColumnBuffer For(string name, ColumnType type) => type switch
        {
            ColumnType.Int32 => new Typed<int?>(name, cell => int.Parse(cell, CultureInfo.InvariantCulture)),
            ColumnType.Double => new Typed<double?>(name, cell => double.Parse(cell, CultureInfo.InvariantCulture)),
            ColumnType.Boolean => new Typed<bool?>(name, cell => cell == "true"),
            _ => new Typed<string?>(name, cell => cell),
        };

        public abstract void Add(int row, string cell);

        public abstract void Write(RowGroupWriter group, int rows);

        private sealed class Typed<T>(string name, Func<string, T> parse) : ColumnBuffer(new Column<T>(name))
        {
            private readonly T[] _values = new T[RowGroupRows];

            public override void Add(int row, string cell) => _values[row] = cell.Length == 0 ? default! : parse(cell);

            public override void Write(RowGroupWriter group, int rows)
            {
                using var column = group.NextColumn().LogicalWriter<T>();
                column.WriteBatch(_values.AsSpan(0, rows));
            }
        }
    }
}
