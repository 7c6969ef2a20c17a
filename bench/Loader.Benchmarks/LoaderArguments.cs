using Loader.CosmosStandIn;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>The loader's command line for loading a flight CSV, as a user would type it.</summary>
internal static class LoaderArguments
{
    /// <summary>A load into the Table service at <paramref name="connectionString"/>, or with none a dry run, which connects to nothing.</summary>
    public static IReadOnlyList<string> For(string input, BenchSettings settings, string reportPath, string? connectionString) =>
        For(input, settings, reportPath, connectionString is null ? ["--table", FlightSchema.Table, "--dry-run"] : ["--table", FlightSchema.Table, $"--Loader:Tables:ConnectionString={connectionString}"]);

    /// <summary>
    /// A load's target in Cosmos DB for NoSQL behind the stand-in: the real SDK in Gateway mode, the stand-in's
    /// certificate trusted, the database and the flights container created when missing, written in <paramref name="mode"/>.
    /// </summary>
    public static IReadOnlyList<string> Cosmos(StandInHost standIn, string database, string mode) =>
    [
        "--backend", "Cosmos",
        $"--Loader:Cosmos:ConnectionString={standIn.ConnectionString()}",
        $"--Loader:Cosmos:Database={database}",
        $"--Loader:Cosmos:Container={FlightSchema.Table}",
        $"--Loader:Cosmos:Mode={mode}",
        "--Loader:Cosmos:ConnectionMode=Gateway",
        "--Loader:Cosmos:TrustEmulatorCertificate=true",
        "--Loader:Cosmos:CreateIfMissing=true",
    ];

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
