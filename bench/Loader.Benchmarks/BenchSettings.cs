using System.Globalization;
using Loader.DataGen;

namespace Loader.Benchmarks;

/// <summary>
/// Options shared by the commands, so <c>bench/run.sh --rows N</c> can pass the same arguments to both;
/// each command uses those that apply to it and has its own defaults.
/// </summary>
public sealed record BenchSettings(long Rows, int Columns, int Partitions, int Parallel, int PerRowRows, int Repeat)
{
    public const string Options = "[--rows N] [--columns C>=12] [--partitions P] [--parallel P] [--per-row-rows N] [--repeat R]";

    public static BenchSettings IngestDefaults { get; } = new(200_000, 20, 1000, 16, 20_000, 1);

    public static BenchSettings DryRunDefaults { get; } = new(5_000_000, 20, 1000, 16, 20_000, 3);

    /// <summary>Rows the one-request-per-row baseline writes: it is slow, so it takes a prefix of the input.</summary>
    public long PerRowRowsUsed => Math.Min(PerRowRows, Rows);

    public static BenchSettings Parse(IReadOnlyList<string> args, BenchSettings defaults)
    {
        var settings = defaults;
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            var text = i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{name} needs a value");
            settings = name switch
            {
                "--rows" => settings with { Rows = Positive(name, text) },
                "--columns" => settings with { Columns = (int)Positive(name, text) },
                "--partitions" => settings with { Partitions = (int)Positive(name, text) },
                "--parallel" => settings with { Parallel = (int)Positive(name, text) },
                "--per-row-rows" => settings with { PerRowRows = (int)Positive(name, text) },
                "--repeat" => settings with { Repeat = (int)Positive(name, text) },
                _ => throw new ArgumentException($"unknown option {name}"),
            };
        }

        return settings.Columns >= GeneratorOptions.KeyColumns
            ? settings
            : throw new ArgumentException($"--columns must be at least {GeneratorOptions.KeyColumns}: the flight fields come first");
    }

    private static long Positive(string name, string text) =>
        long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value is > 0 and <= int.MaxValue
            ? value
            : throw new ArgumentException($"{name} needs a positive whole number, not '{text}'");
}
