using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Configuration;

/// <summary>
/// Every setting of the catalogue through the real process, as a user would mistype it: at its bounds and just past
/// them, zero, negative, its type's largest value, a wrong type, empty. Every run must end in exit 0 or 2 with no stack
/// trace on standard output or error, and a value past a bound in exit 2 naming the setting. Each setting runs the way
/// that uses it: a dry run of a tiny input, a Cosmos DB dry run, a real load or an estimate on Azurite, the plan of a
/// sharded load.
/// </summary>
public sealed partial class SettingsFuzzTests(AzuriteFixture azurite) : IDisposable
{
    private const int InParallel = 4;
    private static readonly TimeSpan s_runTimeout = TimeSpan.FromMinutes(2);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private int _runs;

    public void Dispose() => _directory.Dispose();

    /// <summary>What the fuzz expects of a value.</summary>
    private enum Expect
    {
        /// <summary>Exit 0 or 2 (a value in range may still fail another check, e.g. a path that is not there).</summary>
        Either,

        /// <summary>Exit 2, and the output names the setting.</summary>
        Refused,
    }

    /// <summary>How a setting is exercised.</summary>
    private enum Way
    {
        DryRun,
        CosmosDryRun,
        Load,
        Estimate,
        Plan,
    }

    private sealed record Run(string Key, string Value, Expect Expect, Way Way);

    [Fact]
    public void Every_setting_of_the_catalogue_says_what_it_accepts()
    {
        var unbounded = SettingsCatalog.Describe().Append(SettingsCatalog.SettingsFile).Where(setting => !setting.IsBounded).Select(setting => setting.Key).ToList();

        Assert.True(unbounded.Count == 0, $"settings the catalogue gives no bound (a [Range] for a number or duration, an [Accepts] for text): {string.Join(", ", unbounded)}");
    }

    [Fact]
    public async Task Every_setting_at_and_past_its_bounds_ends_in_exit_0_or_2_without_a_stack_trace()
    {
        await using var sharded = await AzuriteProcess.StartAsync(withBlob: true, withQueue: true, cancellationToken: _cancellation);
        var input = _directory.WriteCsv("in.csv", "pk,rk,n\np,1,5\np,2,7\n");
        var runs = SettingsCatalog.Describe().Append(SettingsCatalog.SettingsFile).SelectMany(Runs).ToList();
        var processes = Processes(runs);
        var problems = new ConcurrentBag<string>();
        var exits = new ConcurrentBag<(Way Way, int Exit)>();
        var clock = Stopwatch.StartNew();

        await Parallel.ForEachAsync(processes, new ParallelOptions { MaxDegreeOfParallelism = InParallel, CancellationToken = _cancellation }, async (process, token) =>
        {
            var (exit, problem) = await CheckAsync(process, input, sharded, token);
            exits.Add((process[0].Way, exit));
            if (problem is not null)
            {
                problems.Add(problem);
            }
        });

        var byWay = exits.GroupBy(run => run.Way).OrderBy(way => way.Key)
            .Select(way => $"{way.Key} {way.Count()} ({string.Join(", ", way.GroupBy(run => run.Exit).OrderBy(exit => exit.Key).Select(exit => $"exit {exit.Key}: {exit.Count()}"))})");
        Measurements.Record(string.Create(CultureInfo.InvariantCulture,
            $"Settings fuzz: {runs.Count} values of {runs.Select(run => run.Key).Distinct().Count()} settings in {processes.Count} runs of the loader process, {clock.Elapsed.TotalSeconds:0} s ({InParallel} at a time), {problems.Count} problem(s); by way: {string.Join("; ", byWay)}"));
        Assert.True(problems.IsEmpty, string.Join(Environment.NewLine + Environment.NewLine, problems.OrderBy(problem => problem, StringComparer.Ordinal)));

        // A way whose every run ends in exit 2 refuses its own base settings, and then shows nothing of the values it runs.
        Assert.All(Enum.GetValues<Way>(), way => Assert.Contains((way, ExitCodes.Success), exits));
    }

    /// <summary>
    /// The processes to run: each value alone, but values past a bound together, one of each setting per process, for
    /// the listing at start names every one of them. Not together: a command that is none (nothing else is checked
    /// then), a backend that is none (it changes which section is), a column the header lacks (found later).
    /// </summary>
    private static List<Run[]> Processes(List<Run> runs)
    {
        static bool Alone(Run run) => run.Expect == Expect.Either || run.Key is "Loader:Command" or "Loader:Backend" || run.Key.StartsWith("Loader:Columns:", StringComparison.Ordinal);
        var together = runs.Where(run => !Alone(run))
            .GroupBy(run => run.Way)
            .SelectMany(way => way.GroupBy(run => run.Key).SelectMany(key => key.Select((run, index) => (run, index))).GroupBy(value => value.index, value => value.run))
            .Select(group => group.ToArray());
        return [.. runs.Where(Alone).Select(run => new[] { run }), .. together];
    }

    /// <summary>Runs the loader with these settings' values (of one way); its exit code and what went wrong, or null.</summary>
    private async Task<(int Exit, string? Problem)> CheckAsync(Run[] runs, string input, AzuriteProcess sharded, CancellationToken cancellationToken)
    {
        var id = Interlocked.Increment(ref _runs);
        var way = runs[0].Way;
        var directory = Directory.CreateDirectory(Path.Combine(_directory.Path, $"run{id}")).FullName;
        var settings = Base(way, input, directory, sharded, id);
        foreach (var run in runs)
        {
            settings[run.Key] = run.Value;
        }

        string[] arguments = [.. way == Way.Plan ? ["plan"] : Array.Empty<string>(), .. way == Way.Estimate ? [LoaderSwitches.EstimateSwitch] : Array.Empty<string>(),
            .. settings.Select(setting => $"--{setting.Key}={setting.Value}")];
        await using var process = LoaderProcess.StartIn(directory, null, arguments);
        var exit = await process.WaitForExitAsync(s_runTimeout, cancellationToken);
        var output = process.Output;
        var what = $"{string.Join(" ", runs.Select(run => $"{run.Key}={run.Value}"))} ({way}): exit {exit}";
        if (StackTrace().Match(output) is { Success: true } trace)
        {
            return (exit, $"{what}, a stack trace ('{trace.Value.Trim()}'):{Environment.NewLine}{output}");
        }

        var unnamed = runs.Where(run => run.Expect == Expect.Refused && !output.Contains(run.Key, StringComparison.OrdinalIgnoreCase)).Select(run => run.Key).ToList();
        return (exit, runs.Any(run => run.Expect == Expect.Refused) && (exit != ExitCodes.InvalidConfiguration || unnamed.Count > 0)
                ? $"{what}, expected exit 2 naming each setting{(unnamed.Count > 0 ? $" (not named: {string.Join(", ", unnamed)})" : "")}:{Environment.NewLine}{output}"
            : exit is not (ExitCodes.Success or ExitCodes.InvalidConfiguration) ? $"{what}, expected 0 or 2:{Environment.NewLine}{output}"
            : null);
    }

    /// <summary>The settings of a run before the fuzzed one replaces its own.</summary>
    private Dictionary<string, string> Base(Way way, string input, string directory, AzuriteProcess sharded, int id)
    {
        var settings = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
        {
            ["Loader:Input"] = input,
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("fuzz"),
            ["Loader:LogFormat"] = "Text", // stack frames on lines of their own, as a person reads them
        };
        switch (way)
        {
            case Way.DryRun:
                settings["Loader:DryRun"] = "true";
                break;
            case Way.CosmosDryRun:
                settings["Loader:DryRun"] = "true";
                settings["Loader:Backend"] = "Cosmos";
                settings["Loader:Cosmos:Endpoint"] = "https://localhost:8081/";
                settings["Loader:Cosmos:Database"] = "fuzz";
                settings["Loader:Cosmos:Container"] = "fuzz";
                break;
            case Way.Load:
            case Way.Estimate:
                settings["Loader:Tables:ConnectionString"] = azurite.ConnectionString;
                settings["Loader:CheckpointPath"] = Path.Combine(directory, "checkpoint.json");
                break;
            case Way.Plan:
                settings["Loader:Blob:ConnectionString"] = sharded.ConnectionString;
                settings["Loader:Tables:ConnectionString"] = sharded.ConnectionString;
                settings["Loader:Shards:State"] = $"{sharded.BlobEndpoint}/state/fuzz{id}/";
                settings["Loader:Shards:Queue"] = $"{sharded.QueueEndpoint}/fuzz{id}";
                break;
        }

        return settings;
    }

    /// <summary>The runs of one setting: its bounds and past them, zero, negative, its type's largest value, a wrong type, empty.</summary>
    private static IEnumerable<Run> Runs(SettingDescription setting)
    {
        var way = WayOf(setting.Key);
        if (setting.Key.EndsWith(":<name>", StringComparison.Ordinal))
        {
            var key = setting.Key.Replace("<name>", "n", StringComparison.Ordinal);
            return
            [
                new(key, Enum.GetNames(setting.Type)[1], Expect.Either, way),
                new(key, "99", Expect.Refused, way),
                new(key, "x", Expect.Refused, way),
                new(key, "", Expect.Refused, way),
                new(setting.Key.Replace("<name>", "nope", StringComparison.Ordinal), Enum.GetNames(setting.Type)[0], Expect.Refused, way),
            ];
        }

        List<(string Value, Expect Expect)> values = setting.Range is { } range ? RangeValues(range, setting.Type)
            : setting.Type.IsEnum ? [(Enum.GetNames(setting.Type)[0], Expect.Either), ("99", Expect.Refused), ("-1", Expect.Refused)]
            : setting.Type == typeof(bool) ? [("true", Expect.Either), ("false", Expect.Either)]
            // An input path that names nothing is unavailable (exit 3), not a mistake in the settings: the input gets none,
            // nor - (standard input, which the test's process would share).
            : setting.Key == "Loader:Input" ? [(" ", Expect.Either), ("https://", Expect.Either)]
            : setting.Type == typeof(string) ? [(" ", Expect.Either), ("x", Expect.Either), ("{", Expect.Either), ("https://", Expect.Either)]
            : throw new InvalidOperationException($"{setting.Key}: no fuzz values for a {setting.Type.Name}");
        if (setting.Type != typeof(string))
        {
            values.Add(("x", Expect.Either)); // a word where a number, a time, a choice or a flag goes
        }

        values.Add(("", Expect.Either));
        return values.DistinctBy(value => value.Value).Select(value => new Run(setting.Key, value.Value, value.Expect, way));
    }

    /// <summary>The bounds, one step past each, zero, a negative and the type's largest value, each with what it must do.</summary>
    private static List<(string Value, Expect Expect)> RangeValues(SettingRange range, Type type)
    {
        var candidates = new List<object>();
        switch (range.Minimum)
        {
            case int min:
                var intMax = (int)range.Maximum;
                candidates.AddRange([min, intMax, 0, -1, int.MaxValue]);
                candidates.AddRange(min > int.MinValue ? [min - 1] : []);
                candidates.AddRange(intMax < int.MaxValue ? [intMax + 1] : []);
                break;
            case long min:
                var longMax = (long)range.Maximum;
                candidates.AddRange([min, longMax, 0L, -1L, long.MaxValue]);
                candidates.AddRange(min > long.MinValue ? [min - 1] : []);
                candidates.AddRange(longMax < long.MaxValue ? [longMax + 1] : []);
                break;
            case double min:
                var doubleMax = (double)range.Maximum;
                candidates.AddRange([min, doubleMax, 0d, -1d, double.MaxValue, double.Epsilon, Math.BitDecrement(min), double.PositiveInfinity, double.NaN]);
                candidates.AddRange(doubleMax < double.MaxValue ? [Math.BitIncrement(doubleMax)] : []);
                break;
            case decimal min:
                var decimalMax = (decimal)range.Maximum;
                candidates.AddRange([min, decimalMax, 0m, -1m, decimal.MaxValue, min - 0.000001m]);
                candidates.AddRange(decimalMax < decimal.MaxValue ? [decimalMax + 0.000001m] : []);
                break;
            case TimeSpan min:
                var timeMax = (TimeSpan)range.Maximum;
                candidates.AddRange([min, timeMax, TimeSpan.Zero, TimeSpan.FromSeconds(-1), TimeSpan.MaxValue, min - TimeSpan.FromTicks(1)]);
                candidates.AddRange(timeMax < TimeSpan.MaxValue ? [timeMax + TimeSpan.FromTicks(1)] : []);
                break;
            default:
                throw new InvalidOperationException($"no fuzz values for a range of {type.Name}");
        }

        return [.. candidates.Select(value => (Text(value), range.Contains(value) ? Expect.Either : Expect.Refused)).DistinctBy(value => value.Item1)];
    }

    /// <summary>A value as a user types it: invariant numbers (doubles round-trip), durations in the constant format.</summary>
    private static string Text(object value) => value switch
    {
        double number => number.ToString("R", CultureInfo.InvariantCulture),
        TimeSpan time => time.ToString("c", CultureInfo.InvariantCulture),
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString()!,
    };

    /// <summary>The run that uses a setting: where a dry run would pass it by, one that reads it.</summary>
    private static Way WayOf(string key) => key switch
    {
        _ when key.StartsWith("Loader:Cosmos:", StringComparison.Ordinal) => Way.CosmosDryRun,
        _ when key.StartsWith("Loader:Shards:", StringComparison.Ordinal) => Way.Plan,
        _ when key.StartsWith("Loader:Estimate:", StringComparison.Ordinal) => Way.Estimate,
        "Loader:CheckpointInterval" or "Loader:DryRun" or "Loader:Check" => Way.Load,
        _ => Way.DryRun,
    };

    /// <summary>What a stack trace leaves in the output: a frame, the runtime's last words, an exception's type name.</summary>
    [GeneratedRegex(@"^\s+at \S+\(|Unhandled exception|\b(System|Microsoft|Azure|Polly|Loader|CsvHelper|OpenTelemetry)\.[\w.]*Exception\b", RegexOptions.Multiline)]
    private static partial Regex StackTrace();
}
