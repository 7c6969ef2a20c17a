using System.Numerics;
using Parquet;
using Parquet.Data;
using Parquet.Schema;
using Parquet.Serialization;

namespace Loader.Worker.Tests.Parquet;

/// <summary>
/// Parquet files for tests, written by Parquet.Net's own writer (snappy): a column of every type the loader maps, a
/// struct and a list, a null in every nullable column, in several row groups; and damaged copies of one.
/// </summary>
internal static class ParquetTestFile
{
    /// <summary>Opens a file as the loader reads one, named in its messages by <paramref name="name"/> (its file name when none is given).</summary>
    public static Task<Loader.Worker.Parquet.ParquetFileReader> OpenAsync(string path, string? name = null, Loader.Worker.Parquet.ParquetDecimalMode decimals = Loader.Worker.Parquet.ParquetDecimalMode.String) =>
        OpenAsync(File.OpenRead(path), name ?? Path.GetFileName(path), decimals);

    /// <summary>Opens a stream as the loader reads a file, named <paramref name="name"/> in its messages.</summary>
    public static Task<Loader.Worker.Parquet.ParquetFileReader> OpenAsync(Stream stream, string name, Loader.Worker.Parquet.ParquetDecimalMode decimals = Loader.Worker.Parquet.ParquetDecimalMode.String) =>
        Loader.Worker.Parquet.ParquetFileReader.OpenAsync(stream, name, decimals, ".", TestContext.Current.CancellationToken);

    public static readonly DataField Id = new DataField<int>("id");
    public static readonly DataField Flag = new DataField<bool?>("flag");
    public static readonly DataField Small = new DataField<short?>("small");
    public static readonly DataField Count = new DataField<int?>("count");
    public static readonly DataField Big = new DataField<long?>("big");
    public static readonly DataField Unsigned = new DataField<ulong?>("unsigned");
    public static readonly DataField Single = new DataField<float?>("single");
    public static readonly DataField Ratio = new DataField<double?>("ratio");
    public static readonly DataField Name = new DataField<string>("name", nullable: true);
    public static readonly DataField Amount = new DecimalDataField("amount", 18, 4, isNullable: true);
    public static readonly DataField Precise = new DecimalDataField("precise", 38, 10, isNullable: true, clrType: typeof(BigDecimal));
    public static readonly DataField When = new DateTimeDataField("when", DateTimeFormat.Timestamp, isNullable: true);
    public static readonly DataField Day = new DataField<DateOnly?>("day");
    public static readonly DataField Uid = new DataField<Guid?>("uid");
    public static readonly DataField Blob = new DataField<byte[]>("blob", nullable: true);
    public static readonly DataField Time = new TimeDataField("time", TimeUnitPrecision.Millis, isNullable: true);
    public static readonly StructField Address = new("address", new DataField<string>("city", nullable: true), new DataField<int?>("zip"));
    public static readonly ListField Tags = new("tags", new DataField<string>("element", nullable: true));

    public static ParquetSchema EveryType { get; } = new(Id, Flag, Small, Count, Big, Unsigned, Single, Ratio, Name, Amount, Precise, When, Day, Uid, Blob, Time, Address, Tags);

    public static readonly DateTime BaseTime = new(2024, 3, 1, 12, 30, 15, DateTimeKind.Utc);

    /// <summary>Row <paramref name="id"/> of the every-type file (lists as Parquet.Net's untyped writer takes them: of ReadOnlyMemory): row 3 holds a null in every nullable column, row 5 an empty list.</summary>
    public static Dictionary<string, object?> Row(int id)
    {
        if (id == 3)
        {
            return new Dictionary<string, object?>
            {
                ["id"] = id, ["flag"] = null, ["small"] = null, ["count"] = null, ["big"] = null, ["unsigned"] = null, ["single"] = null,
                ["ratio"] = null, ["name"] = null, ["amount"] = null, ["precise"] = null, ["when"] = null, ["day"] = null, ["uid"] = null,
                ["blob"] = null, ["time"] = null, ["address"] = null, ["tags"] = null,
            };
        }

        return new Dictionary<string, object?>
        {
            ["id"] = id,
            ["flag"] = id % 2 == 0,
            ["small"] = (short)(id - 100),
            ["count"] = id * 1000,
            ["big"] = 5_000_000_000L + id,
            ["unsigned"] = (ulong)id * 7,
            ["single"] = 0.5f + id,
            ["ratio"] = id / 8.0,
            ["name"] = $"name-{id} é",
            ["amount"] = 1234.5m + id,
            ["precise"] = new BigDecimal(BigInteger.Parse("1234567890123456789012345678", System.Globalization.CultureInfo.InvariantCulture) + id, 38, 10),
            ["when"] = BaseTime.AddMinutes(id),
            ["day"] = new DateOnly(2024, 1, 1).AddDays(id),
            ["uid"] = new Guid(id, 0, 0, [1, 2, 3, 4, 5, 6, 7, 8]),
            ["blob"] = new ReadOnlyMemory<byte>([0, (byte)id, 255]),
            ["time"] = (int)(TimeSpan.FromHours(1).TotalMilliseconds + id),
            ["address"] = new Dictionary<string, object?> { ["city"] = $"city-{id % 3}", ["zip"] = 10_000 + id },
            ["tags"] = id == 5 ? new List<ReadOnlyMemory<char>?>() : new List<ReadOnlyMemory<char>?> { "a".AsMemory(), $"t{id}".AsMemory() },
        };
    }

    /// <summary>Writes rows 1 to <paramref name="rows"/> in row groups of <paramref name="rowGroupSize"/>.</summary>
    public static async Task WriteEveryTypeAsync(string path, int rows, int rowGroupSize, CancellationToken cancellationToken)
    {
        var data = Enumerable.Range(1, rows).Select(id => (IDictionary<string, object?>)Row(id)).ToList();
        await using var file = File.Create(path);
        await ParquetSerializer.SerializeUntypedAsync(data, EveryType, file,
            new ParquetOptions { RowGroupSize = rowGroupSize, CompressionMethod = CompressionMethod.Snappy }, cancellationToken: cancellationToken);
    }

    /// <summary>Writes a flat file of <paramref name="schema"/> from rows of values by column name.</summary>
    public static async Task WriteAsync(string path, ParquetSchema schema, IEnumerable<Dictionary<string, object?>> rows, int rowGroupSize, CancellationToken cancellationToken, CompressionMethod compression = CompressionMethod.Snappy)
    {
        var data = rows.Select(row => (IDictionary<string, object?>)row).ToList();
        await using var file = File.Create(path);
        await ParquetSerializer.SerializeUntypedAsync(data, schema, file,
            new ParquetOptions { RowGroupSize = rowGroupSize, CompressionMethod = compression }, cancellationToken: cancellationToken);
    }

    /// <summary>
    /// Writes the every-type file of 12 rows in row groups of 4 to <paramref name="path"/> and a copy of it whose row group 2
    /// starts with damaged bytes; returns the copy and where row group 2 starts.
    /// </summary>
    public static async Task<(string Path, long Offset)> WriteDamagedRowGroup2Async(string path, CancellationToken cancellationToken)
    {
        await WriteEveryTypeAsync(path, rows: 12, rowGroupSize: 4, cancellationToken);
        long offset;
        await using (var intact = await OpenAsync(path))
        {
            offset = intact.OffsetOf(1);
        }

        return (Corrupted(path, offset, 48), offset);
    }

    /// <summary>A copy of <paramref name="path"/> cut short by <paramref name="bytes"/>: its footer is gone.</summary>
    public static string Truncated(string path, int bytes)
    {
        var copy = path + ".truncated.parquet";
        var content = File.ReadAllBytes(path);
        File.WriteAllBytes(copy, content.AsSpan(0, content.Length - bytes).ToArray());
        return copy;
    }

    /// <summary>A copy of <paramref name="path"/> with bytes overwritten from <paramref name="offset"/>: a page there is damaged, the footer intact.</summary>
    public static string Corrupted(string path, long offset, int length)
    {
        var copy = path + ".corrupted.parquet";
        var content = File.ReadAllBytes(path);
        content.AsSpan((int)offset, length).Fill(0xA5);
        File.WriteAllBytes(copy, content);
        return copy;
    }
}
