using System.Globalization;

namespace Loader.DataGen;

/// <summary>What to generate.</summary>
/// <param name="Rows">Data rows.</param>
/// <param name="Columns">Columns in all, at least the 8 that make keys and the standard flight fields; extra ones are measurement columns m1, m2, ...</param>
/// <param name="Partitions">Distinct partition keys (destination airports).</param>
/// <param name="Skew">Zipf exponent of partition popularity: 0 spreads rows evenly, 1 or more makes a few partitions hot.</param>
/// <param name="Seed">Random seed: the same options give the same file.</param>
/// <param name="Sorted">Rows grouped by partition key, as exports often are.</param>
/// <param name="Output">File to write, or standard output.</param>
public sealed record GeneratorOptions(long Rows, int Columns, int Partitions, double Skew, int Seed, bool Sorted, string? Output)
{
    public const int KeyColumns = 12;

    public const string Usage = "usage: DataGen --rows N [--columns C>=12] [--partitions P] [--skew S] [--seed X] [--sorted] [--output path]";

    public static GeneratorOptions Parse(string[] args)
    {
        long rows = 1000;
        int columns = 20, partitions = 500, seed = 42;
        double skew = 0;
        var sorted = false;
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
                case "--output": output = Next(); break;
                default: throw new ArgumentException($"unknown option {args[i]}");
            }
        }

        if (rows < 0 || columns < KeyColumns || partitions < 1 || skew < 0)
        {
            throw new ArgumentException(string.Create(CultureInfo.InvariantCulture, $"rows >= 0, columns >= {KeyColumns}, partitions >= 1 and skew >= 0 are required"));
        }

        return new GeneratorOptions(rows, columns, partitions, skew, seed, sorted, output);
    }
}
