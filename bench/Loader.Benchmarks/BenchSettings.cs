using System.Globalization;
using Loader.DataGen;

namespace Loader.Benchmarks;

/// <summary>
/// Options shared by the commands, so <c>bench/run.sh --rows N</c> can pass the same arguments to both;
/// each command uses those that apply to it and has its own defaults. <c>Budget</c> (RU/s) and <c>RuPerKilobyte</c>
/// (RU per started KiB of entity JSON) set up the throttling simulator, for <c>throttle</c> only.
/// </summary>
internal sealed record BenchSettings(long Rows, int Columns, int Partitions, int Parallel, int PerRowRows, int Repeat, int Budget, int RuPerKilobyte, DataShape Shape = DataShape.Skewed)
{
    public const string Options = "[--shape skewed|uniform] [--rows N] [--columns C>=12] [--partitions P] [--parallel P] [--per-row-rows N] [--repeat R] [--budget RU/s] [--ru-per-kb RU] [--baseline-loader DLL] [--azurite RELEASE] [--backend Tables|Cosmos]";

    /// <summary>
    /// For <c>instant</c>: the Loader.Worker.dll of another build to measure beside this one's, the REST-client
    /// loader of commit 491e8a8 as <c>bench/run.sh instant</c> builds it; none measures this build alone.
    /// </summary>
    public string? BaselineLoader { get; init; }

    /// <summary>For <c>instant</c>: the backend whose client is measured, <c>Tables</c> (the default) or <c>Cosmos</c>.</summary>
    public string Backend { get; init; } = "Tables";

    /// <summary>An Azurite release kept in tools/azurite-releases (e.g. 3.35.0, a slower service), instead of the one tools/ pins.</summary>
    public string? AzuriteRelease { get; init; }

    /// <summary>
    /// The rows of a real year of flights (336,776), shaped like them (DataGen's skewed shape): more than 300,000 rows
    /// into one Azurite, long enough for it to slow down as its partitions grow.
    /// </summary>
    public static BenchSettings IngestDefaults { get; } = new(336_776, 20, 1000, 16, 20_000, 1, 5_000, 10);

    /// <summary>Adaptive against Fixed 2/4/8/16 on the ingest data (first 50,000 rows, then all), once each: five loads of the whole file already take a while.</summary>
    public static BenchSettings ConcurrencyDefaults { get; } = IngestDefaults;

    public static BenchSettings DryRunDefaults { get; } = new(5_000_000, 20, 1000, 16, 20_000, 3, 5_000, 10, DataShape.Uniform);

    /// <summary>
    /// 10 RU per 1 KB row is about 10 RU a row, so 5,000 RU/s is about 500 rows/s: well under what Azurite takes
    /// even as it fills, so the budget, not Azurite, sets the pace.
    /// </summary>
    public static BenchSettings ThrottleDefaults { get; } = new(200_000, 20, 300, 16, 20_000, 1, 5_000, 10);

    /// <summary>
    /// A million rows: at the 100,000 rows/s aimed at (Tables), about ten seconds a run, long against start-up. Uniform
    /// rows, so every batch is alike and the runs measure the client's cost per row, not how skewed data batches.
    /// </summary>
    public static BenchSettings InstantDefaults { get; } = new(1_000_000, 20, 1000, 16, 20_000, 3, 5_000, 10, DataShape.Uniform);

    /// <summary>
    /// Start-up: the first 50,000 rows of the quick start's flights (12 columns, 150 destinations), short enough that
    /// starting weighs; the loader with its default 16 batches in flight at most.
    /// </summary>
    public static BenchSettings StartupDefaults { get; } = new(50_000, 12, 150, 16, 20_000, 3, 5_000, 10);

    /// <summary>A million rows, about 110 MiB of CSV: some 27 blocks of 4 MiB per read.</summary>
    /// <summary>Scale out: latency-bound workers, one batch in flight each, on skewed data.</summary>
    public static BenchSettings ScaleOutDefaults { get; } = new(300_000, 14, 1000, 1, 20_000, 1, 5_000, 10);

    public static BenchSettings BlobReadDefaults { get; } = new(1_000_000, 20, 1000, 16, 20_000, 5, 5_000, 10);

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
                "--budget" => settings with { Budget = (int)Positive(name, text) },
                "--ru-per-kb" => settings with { RuPerKilobyte = (int)Positive(name, text) },
                "--shape" => settings with { Shape = Enum.TryParse<DataShape>(text, ignoreCase: true, out var shape) ? shape : throw new ArgumentException($"--shape is skewed or uniform, not '{text}'") },
                "--azurite" => settings with { AzuriteRelease = text },
                "--backend" => settings with { Backend = text is "Tables" or "Cosmos" ? text : throw new ArgumentException($"--backend is Tables or Cosmos, not '{text}'") },
                "--baseline-loader" => settings with { BaselineLoader = File.Exists(text) ? Path.GetFullPath(text) : throw new ArgumentException($"{name}: no file '{text}'") },
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
