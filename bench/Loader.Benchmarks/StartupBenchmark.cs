using System.Diagnostics;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// Start-up: the published loader, run as a process on the first 50,000 rows of the quick start's flights into a fresh
/// Azurite, in turns with two raw writers on the same rows (a fresh Azurite each): the issue's raw Node SDK writer and the
/// .NET raw batch ceiling. What it takes the process to reach its first batch, and its rows per second over the whole
/// wall-clock time (start-up and exit included) against each writer's (writing only), for the build the Dockerfile ships
/// and for the candidate publish and runtime options. The target is the issue's: against the Node SDK.
/// </summary>
internal sealed class StartupBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "startup";

    /// <summary>The raw writers as the issue measured its own: batches of up to 100, 4 in flight.</summary>
    public const int RawInFlight = 4;

    private const double Target = 0.9;

    // The first entities of a loader's table and of the Node SDK's, read back once each: the two must write the same.
    private IReadOnlyList<string> _loaderSample = [];
    private IReadOnlyList<string> _nodeSample = [];

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var (startedAt, machine, commandLine) = await BenchRun.OpenAsync(
            Invariant($"# Start-up: the first {settings.Rows:N0} flights of data/flights.csv.gz into Azurite, wall clock against the raw Node SDK"), output, cancellationToken);
        var flights = FirstFlights.Write(settings.Rows);
        var oneRow = FirstFlights.Write(1);
        output.WriteLine(Invariant($"- data: the first {flights.Rows:N0} rows of {FirstFlights.Source} the loader takes (the broken ones left out), {flights.DistinctKeys:N0} distinct keys: {flights.Path}"));
        var builds = new[] { await StartupBuild.JitAsync(cancellationToken), await StartupBuild.ReadyToRunAsync(cancellationToken) };
        foreach (var build in builds)
        {
            output.WriteLine(Invariant($"- build {build.Name}: `{build.PublishCommand}` ({build.PublishSeconds:N1} s, {build.SizeMiB:N1} MiB)"));
        }

        var variants = StartupVariant.Of(builds[0], builds[1]);
        var prepared = PreparedLoad.Create(flights.Path, FirstFlights.Columns);
        output.WriteLine(Invariant($"- {StartupRun.Node} (the issue's baseline, the target's): `node {Path.GetRelativePath(RepositoryPaths.Root, NodeRawWriter.Script)}`, @azure/data-tables: the same rows built into entities before its clock starts, batches of up to 100 per partition, {RawInFlight} in flight, only the writing timed"));
        output.WriteLine(Invariant($"- {StartupRun.Raw} (.NET, the stricter figure, printed only): in this process, the rows mapped and batched by the loader's own mapper and batcher (untimed): {prepared.Batches.Count:N0} batches through its TablesAdapter, {RawInFlight} in flight"));
        var folder = BenchPaths.NewRunFolder(Command, startedAt);
        output.WriteLine($"- loader: `dotnet <build>/Loader.Worker.dll ...` as printed for each run, environment before it; output and reports in {folder}");
        output.WriteLine("- start-up times are the loader's own: its JSON log's timestamps against the moment before the benchmark started the process");
        output.WriteLine($"- start and exit alone: before each load, the same build and environment dry-run {oneRow.Path} (one row), its CPU and wall time");
        output.WriteLine();

        output.WriteLine("## Runs (each on a fresh Azurite; the table is counted after each)");
        var runs = new List<StartupRun>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            var number = repeat;
            var phases = variants.Select<StartupVariant, Func<Task<StartupRun>>>(variant => () => MeasureLoaderAsync(variant, flights, oneRow, folder, number, cancellationToken))
                .Append(() => MeasureNodeAsync(flights, number, cancellationToken))
                .Append(() => MeasureRawAsync(prepared, flights, number, cancellationToken))
                .ToArray();

            // Each repeat starts with another phase, so a machine growing busier or quieter favours none of them.
            for (var i = 0; i < phases.Length; i++)
            {
                runs.Add(await phases[(i + repeat - 1) % phases.Length]());
            }
        }

        output.WriteLine();
        var results = StartupSummary.Of(variants, runs, Target);
        results.Write(output, settings.Repeat);
        var sameEntities = EntitySample.Difference(_loaderSample, _nodeSample);
        output.WriteLine(sameEntities is null
            ? Invariant($"Entities: the first {_loaderSample.Count} in key order read back from a loader's table and the Node SDK's: the same properties, types and values.")
            : "INVALID: the Node SDK did not write what the loader writes: " + sameEntities);
        var valid = runs.All(run => run.Problem is null) && sameEntities is null;
        if (!valid)
        {
            output.WriteLine("INVALID: a run lost rows or failed (see the runs above); its numbers mean nothing. Exit code 3.");
        }

        var loadAverage = MachineFacts.LoadAverage();
        var path = ResultsFile.Write(Command, startedAt, new StartupResults(startedAt, machine, settings, commandLine, builds, runs, results.Rows, valid, loadAverage));
        output.WriteLine($"Load average at the end: {loadAverage}. Results: {path}");
        return BenchExitCodes.Of(valid, results.Rows.Where(row => row.Variant.Ships).Select(row => row.Check));
    }

    private async Task<StartupRun> MeasureLoaderAsync(StartupVariant variant, FirstFlights flights, FirstFlights oneRow, string folder, int repeat, CancellationToken cancellationToken)
    {
        var name = Invariant($"{variant.Build.Name}-{string.Join('-', variant.Environment.Select(e => $"{e.Key}{e.Value}"))}-{repeat}").Replace("--", "-", StringComparison.Ordinal).ToLowerInvariant();
        var startPath = Path.Combine(folder, name + "-one-row.json");
        var start = await LoaderProcess.RunAsync(
            LoaderArguments.For(oneRow.Path, settings, startPath, connectionString: null), startPath, Path.ChangeExtension(startPath, ".log"), cancellationToken,
            loaderDll: variant.Build.LoaderDll, environment: variant.Environment);

        await using var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken);
        var reportPath = Path.Combine(folder, name + ".json");
        var run = await LoaderProcess.RunAsync(
            LoaderArguments.For(flights.Path, settings, reportPath, azurite.ConnectionString), reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken,
            loaderDll: variant.Build.LoaderDll, environment: variant.Environment);
        var times = StartupTimes.Read(run.LogPath, run.StartedAt);
        var stored = await TableCount.CountAsync(azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        if (_loaderSample.Count == 0)
        {
            _loaderSample = await EntitySample.ReadAsync(azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        }

        var problem = run.Problem(flights.Rows) ?? Lost(stored, flights.DistinctKeys) ?? start.Problem(oneRow.Rows);
        var measured = new StartupRun(repeat, variant.Name, Math.Round(run.WallSeconds, 3), times.FirstLogSeconds, times.LoadStartingSeconds, run.Report?.ElapsedSeconds, run.CpuSeconds, flights.Rows, stored, problem)
        {
            OneRowCpuSeconds = start.CpuSeconds,
            OneRowSeconds = Math.Round(start.WallSeconds, 3),
        };
        var environment = string.Concat(variant.Environment.Select(e => $"{e.Key}={e.Value} "));
        output.WriteLine($"- run {repeat}, {variant.Name}: `{environment}{run.CommandLine}`");
        output.WriteLine(Invariant($"  one-row dry run: CPU {start.CpuSeconds:N2} s, wall {start.WallSeconds:N2} s; load: wall {measured.Seconds:N2} s = {measured.RowsPerSecond:N0} rows/s; first log line at {times.FirstLogSeconds:N3} s, load starting at {times.LoadStartingSeconds:N3} s; ")
            + Invariant($"the report's elapsed {run.Report?.ElapsedSeconds:N2} s; CPU {run.CpuSeconds:N2} s; table holds {stored:N0} of {flights.DistinctKeys:N0}; load average {MachineFacts.LoadAverage()}")
            + (problem is null ? "" : " -- INVALID: " + problem));
        return measured;
    }

    private async Task<StartupRun> MeasureNodeAsync(FirstFlights flights, int repeat, CancellationToken cancellationToken)
    {
        await using var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken);
        var write = await NodeRawWriter.WriteAsync(flights.Path, azurite.ConnectionString, FlightSchema.Table, RawInFlight, cancellationToken);
        var stored = await TableCount.CountAsync(azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        if (_nodeSample.Count == 0)
        {
            _nodeSample = await EntitySample.ReadAsync(azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        }

        var problem = write.FailedRequests > 0 ? Invariant($"{write.FailedRequests:N0} of {write.Requests:N0} requests failed, the first with: {write.FirstError}")
            : write.Rows != flights.Rows ? Invariant($"it wrote {write.Rows:N0} rows of {flights.Rows:N0}: {write.FirstError}")
            : Lost(stored, flights.DistinctKeys);
        var measured = new StartupRun(repeat, StartupRun.Node, Math.Round(write.Seconds, 3), null, null, null, null, flights.Rows, stored, problem);
        output.WriteLine(Invariant($"- run {repeat}, {StartupRun.Node}: {write.Requests:N0} batches in {measured.Seconds:N2} s = {measured.RowsPerSecond:N0} rows/s; table holds {stored:N0} of {flights.DistinctKeys:N0}; load average {MachineFacts.LoadAverage()}")
            + (problem is null ? "" : " -- INVALID: " + problem));
        return measured;
    }

    private async Task<StartupRun> MeasureRawAsync(PreparedLoad prepared, FirstFlights flights, int repeat, CancellationToken cancellationToken)
    {
        await using var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken);
        var (_, adapter) = await AzuriteTables.ConnectAsync(azurite, RawInFlight, cancellationToken);

        // The prepared input is a large heap: collect it now, so no full collection lands inside the timed part.
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        var timing = await RawBatchCeiling.WriteAsync(adapter, prepared.Batches, RawInFlight, cancellationToken);
        var cpuSeconds = (Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalSeconds;
        var stored = await TableCount.CountAsync(azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        var problem = timing.FailedRequests > 0
            ? Invariant($"{timing.FailedRequests:N0} of {timing.Requests:N0} requests failed, the first with: {timing.FirstError}")
            : Lost(stored, flights.DistinctKeys);
        var measured = new StartupRun(repeat, StartupRun.Raw, Math.Round(timing.Seconds, 3), null, null, null, Math.Round(cpuSeconds, 2), flights.Rows, stored, problem);
        output.WriteLine(Invariant($"- run {repeat}, {StartupRun.Raw}: {timing.Requests:N0} batches in {measured.Seconds:N2} s = {measured.RowsPerSecond:N0} rows/s; table holds {stored:N0} of {flights.DistinctKeys:N0}; load average {MachineFacts.LoadAverage()}")
            + (problem is null ? "" : " -- INVALID: " + problem));
        return measured;
    }

    private static string? Lost(long stored, long expected) =>
        stored == expected ? null : Invariant($"LOST ROWS: the table holds {stored:N0} entities, {expected:N0} expected");
}
