using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>The loader's command line for loading a flight CSV, as a user would type it.</summary>
internal static class LoaderArguments
{
    /// <summary>A load into the Table service at <paramref name="connectionString"/>, or with none a dry run, which connects to nothing.</summary>
    public static IReadOnlyList<string> For(string input, BenchSettings settings, string reportPath, string? connectionString) =>
        For(input, settings, reportPath, connectionString is null ? ["--table", FlightSchema.Table, "--dry-run"] : ["--table", FlightSchema.Table, $"--Loader:Tables:ConnectionString={connectionString}"]);

    /// <summary>A load with <paramref name="target"/> naming where it goes (backend, endpoint, table or container).</summary>
    public static IReadOnlyList<string> For(string input, BenchSettings settings, string reportPath, IReadOnlyList<string> target)
    {
        List<string> arguments =
        [
            "--input", input,
            "--partition-key", FlightSchema.PartitionKey,
            "--row-key", FlightSchema.RowKey,
            "--parallel", Invariant($"{settings.Parallel}"),
            "--report", reportPath,
        ];
        arguments.AddRange(FlightSchema.ColumnTypes(settings.Columns).Select(column => $"--Loader:Columns:{column.Key}={column.Value}"));
        arguments.AddRange(target);
        return arguments;
    }
}
