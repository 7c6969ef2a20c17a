using System.Globalization;

namespace Loader.DataGen;

/// <summary>How rows are spread over partitions and keyed.</summary>
public enum DataShape
{
    /// <summary>Partitions drawn by a Zipf law of exponent <see cref="GeneratorOptions.Skew"/> (0: evenly); keys unique, in each partition's sequence.</summary>
    Uniform,

    /// <summary>
    /// Shaped like a real flights export: a Zipf head of partitions (a few with tens of thousands of rows), a tail
    /// of rare partitions with one to three rows each scattered through the file, rows in date order with the
    /// carrier and flight of each day in no sorted order, and a few rows repeating an earlier row's keys.
    /// </summary>
    Skewed,
}

/// <summary>What to generate.</summary>
/// <param name="Rows">Data rows.</param>
/// <param name="Columns">Columns in all, at least the 8 that make keys and the standard flight fields; extra ones are measurement columns m1, m2, ...</param>
/// <param name="Partitions">Distinct partition keys (destination airports); for <see cref="DataShape.Skewed"/>, those of the Zipf head.</param>
/// <param name="Skew">Zipf exponent of partition popularity: 0 spreads rows evenly, 1 or more makes a few partitions hot.</param>
/// <param name="Seed">Random seed: the same options give the same file.</param>
/// <param name="Sorted">Rows grouped by partition key, as exports often are (uniform shape only).</param>
/// <param name="Output">File to write, or standard output.</param>
public sealed record GeneratorOptions(long Rows, int Columns, int Partitions, double Skew, int Seed, bool Sorted, string? Output)
{
    public const int KeyColumns = 12;

    public const string Usage =
        "usage: DataGen --rows N [--columns C>=12] [--partitions P] [--skew S] [--seed X] [--sorted] [--shape uniform|skewed] [--rare R] [--duplicates D] [--output path]";

    public DataShape Shape { get; init; } = DataShape.Uniform;

    /// <summary>Skewed shape: partitions that get one to three rows each, beside the Zipf head.</summary>
    public int RarePartitions { get; init; }

    /// <summary>Skewed shape: about how many rows repeat the keys of an earlier row of their partition.</summary>
    public long Duplicates { get; init; }

    /// <summary>
    /// The skewed shape's defaults, after the 336,776 flights of a real year (105 destinations, from 1 row to
    /// about 17,000): 120 partitions drawn by Zipf with exponent 1 (the largest holds about a fifth of the rows),
    /// 30 rare ones, and one row in 2,000 repeating an earlier key.
    /// </summary>
    public static GeneratorOptions Skewed(long rows, int columns, int seed, string? output) =>
        new(rows, columns, Partitions: 120, Skew: 1.0, seed, Sorted: false, output)
        {
            Shape = DataShape.Skewed,
            RarePartitions = 30,
            Duplicates = rows / 2000,
        };

    public static GeneratorOptions Parse(string[] args)
    {
        long rows = 1000;
        int columns = 20, seed = 42;
        int? partitions = null, rare = null;
        double? skew = null;
        long? duplicates = null;
        var sorted = false;
        var shape = DataShape.Uniform;
        string? output = null;
        for (var i = 0; i < args.Length; i++)
        {
            string Next() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value");
            switch (args[i])
            {
                case "--rows": rows = long.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--columns": columns = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--partitions": partitions = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--skew": skew = double.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--seed": seed = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--sorted": sorted = true; break;
                case "--shape": shape = Enum.Parse<DataShape>(Next(), ignoreCase: true); break;
                case "--rare": rare = int.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--duplicates": duplicates = long.Parse(Next(), CultureInfo.InvariantCulture); break;
                case "--output": output = Next(); break;
                default: throw new ArgumentException($"unknown option {args[i]}");
            }
        }

        var options = shape == DataShape.Skewed
            ? Skewed(rows, columns, seed, output)
            : new GeneratorOptions(rows, columns, 500, 0, seed, sorted, output);
        options = options with
        {
            Partitions = partitions ?? options.Partitions,
            Skew = skew ?? options.Skew,
            RarePartitions = rare ?? options.RarePartitions,
            Duplicates = duplicates ?? options.Duplicates,
        };
        if (rows < 0 || columns < KeyColumns || options.Partitions < 1 || options.Skew < 0 || options.RarePartitions < 0 || options.Duplicates < 0)
        {
            throw new ArgumentException(string.Create(CultureInfo.InvariantCulture, $"rows >= 0, columns >= {KeyColumns}, partitions >= 1, and skew, rare and duplicates >= 0 are required"));
        }

        if (shape == DataShape.Skewed && sorted)
        {
            throw new ArgumentException("--sorted applies to the uniform shape only");
        }

        return options;
    }
}
