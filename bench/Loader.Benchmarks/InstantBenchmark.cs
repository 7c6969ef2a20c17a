using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// The client's own ceiling: the whole loader as its own process against an endpoint that costs nothing, in this
/// process (<see cref="IInstantEndpoint"/>: every batch answered with success at once, no service behind it), so what
/// limits the speed is the loader's CPU. <c>--backend Tables</c> (the default) measures this build's Tables adapter
/// beside another build given by <c>--baseline-loader</c> (the hand-written REST client of commit 491e8a8);
/// <c>--backend Cosmos</c> measures the Cosmos DB adapter through the real SDK, in TransactionalBatch and Bulk mode.
/// The loaders run in turns on the same input; rows/s come from each report, CPU per row from the loader process's
/// user and system time.
/// </summary>
internal sealed class InstantBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "instant";

    /// <summary>Requests at most this many times the fewest the rows fit in: the buffer of partial batches fills them.</summary>
    private const double RequestsTarget = 1.2;

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var cosmos = settings.Backend == "Cosmos";
        if (cosmos && settings.BaselineLoader is not null)
        {
            throw new ArgumentException("--baseline-loader measures the Tables adapter's predecessor; it has no place with --backend Cosmos");
        }

        await using IInstantEndpoint endpoint = cosmos ? await CosmosInstantEndpoint.StartAsync(cancellationToken) : await TableInstantEndpoint.StartAsync(settings, cancellationToken);
        var bench = await BenchRun.StartAsync(
            Command,
            Invariant($"# Instant {(cosmos ? "Cosmos DB" : "Table")} endpoint: {settings.Rows:N0} rows x {settings.Columns} columns, {settings.Partitions:N0} partitions, --parallel {settings.Parallel}, {settings.Repeat} runs of each loader"),
            settings, output, cancellationToken);
        output.WriteLine($"- endpoint: {endpoint.Description}, in this process");
        if (!cosmos)
        {
            output.WriteLine($"- baseline loader: {settings.BaselineLoader ?? "none given (--baseline-loader): this build alone"}");
        }

        output.WriteLine($"- loader output and reports: {bench.Folder}");
        output.WriteLine();

        output.WriteLine("## Runs");
        var samples = new List<InstantSample>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            // Turn about, so a machine that gets busier during the run favours none.
            foreach (var variant in repeat % 2 == 1 ? endpoint.Variants : endpoint.Variants.Reverse())
            {
                samples.Add(await MeasureAsync(variant, repeat, endpoint, bench, cancellationToken));
            }
        }

        output.WriteLine();
        var valid = samples.All(sample => sample.Problem is null);
        var targets = endpoint.Variants
            .Where(variant => variant.RowsPerSecondTarget is not null)
            .Select(variant => new TargetCheck(
                $"{variant.Name} rows/s (median)",
                Math.Round(Statistics.Median(samples.Where(sample => sample.Loader == variant.Name).Select(sample => sample.RowsPerSecond))),
                variant.RowsPerSecondTarget!.Value,
                AtLeast: true))
            .ToList();
        targets.AddRange(RestTargets(samples));
        if (!cosmos)
        {
            // Table batches are the loader's own (Cosmos DB's Bulk mode batches in the SDK): how full they leave.
            var fewest = FullBatchMinimum.Of(bench.Csv);
            output.WriteLine(Invariant($"Full-batch minimum: {fewest:N0} requests (every partition key's batches of {FullBatchMinimum.BatchSize} full but its last)."));
            output.WriteLine();
            targets.AddRange(endpoint.Variants
                .Where(variant => variant.LoaderDll is null)
                .Select(variant => new TargetCheck(
                    $"{variant.Name} requests / full-batch minimum (median)",
                    Math.Round(Statistics.Median(samples.Where(sample => sample.Loader == variant.Name).Select(sample => (double)sample.Batches)) / fewest, 3),
                    RequestsTarget,
                    AtLeast: false)));
        }

        Print(samples, targets, valid);

        bench.Finish(loadAverage => new InstantResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, samples, targets, valid, loadAverage));
        return BenchExitCodes.Of(valid, targets);
    }

    private async Task<InstantSample> MeasureAsync(InstantVariant variant, int repeat, IInstantEndpoint endpoint, BenchRun bench, CancellationToken cancellationToken)
    {
        endpoint.Reset();
        var reportPath = Path.Combine(bench.Folder, Invariant($"{variant.File}-{repeat}.json"));
        var endpointCpu = new CpuMeter(Environment.ProcessId);
        var run = await LoaderProcess.RunAsync(
            LoaderArguments.For(bench.Csv, settings, reportPath, variant.Target), reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken, variant.LoaderDll);
        var endpointCores = endpointCpu.CoresUsed();
        var (requests, counted) = endpoint.Counted();
        var rows = run.Report?.RowsWritten ?? 0;
        var problem = run.Problem(settings.Rows)
            ?? (counted != settings.Rows ? Invariant($"the endpoint counted {counted:N0} rows of {settings.Rows:N0}") : null);
        var sample = new InstantSample(
            variant.Name, repeat, rows, run.Report?.ElapsedSeconds ?? run.WallSeconds, requests, run.CpuSeconds, run.CoresUsed, endpointCores,
            run.Report?.PeakMemoryMiB, run.CommandLine, problem);
        output.WriteLine($"- {variant.Name}, run {repeat}: `{run.CommandLine}`" + (problem is null ? "" : " -- INVALID: " + problem));
        return sample;
    }

    /// <summary>
    /// Issue #29's bar for the default (Direct) writer beside the REST client in the same run: at least its rows/s, and
    /// at most 20 µs of CPU per row. None without a baseline.
    /// </summary>
    private static IEnumerable<TargetCheck> RestTargets(IReadOnlyList<InstantSample> samples)
    {
        var direct = samples.Where(s => s.Loader == TableInstantEndpoint.SdkName).ToList();
        var rest = samples.Where(s => s.Loader == TableInstantEndpoint.BaselineName).ToList();
        if (direct.Count == 0 || rest.Count == 0)
        {
            yield break;
        }

        yield return new TargetCheck(
            "Direct / REST rows/s (medians)",
            Math.Round(Statistics.Median(direct.Select(s => s.RowsPerSecond)) / Statistics.Median(rest.Select(s => s.RowsPerSecond)), 2),
            1.0,
            AtLeast: true);
        yield return new TargetCheck(
            $"{TableInstantEndpoint.SdkName} CPU µs/row (median)",
            Math.Round(Statistics.Median(direct.Select(s => s.CpuMicrosecondsPerRow ?? double.NaN)), 2),
            20,
            AtLeast: false);
    }

    private void Print(IReadOnlyList<InstantSample> samples, IReadOnlyList<TargetCheck> targets, bool valid)
    {
        output.WriteLine("## Results");
        var table = new MarkdownTable("loader", "run", "rows", "seconds", "rows/s", "CPU µs/row", "loader cores", "endpoint cores", "requests", "rows/request", "peak MiB");
        foreach (var s in samples)
        {
            table.Add(s.Loader, Invariant($"{s.Repeat}"), Format.Number(s.Rows), Format.Number(s.Seconds, 2), Format.Number(s.RowsPerSecond),
                Format.Number(s.CpuMicrosecondsPerRow, 2), Format.Number(s.LoaderCores, 2), Format.Number(s.EndpointCores, 2), Format.Number(s.Batches),
                Format.Number(s.Batches > 0 ? (double)s.Rows / s.Batches : null, 1), Format.Number(s.PeakMiB, 0));
        }

        table.Write(output);

        var medians = new MarkdownTable("loader", "rows/s (median)", "CPU µs/row (median)");
        foreach (var group in samples.GroupBy(s => s.Loader))
        {
            medians.Add(group.Key, Format.Number(Statistics.Median(group.Select(s => s.RowsPerSecond))),
                Format.Number(Statistics.Median(group.Select(s => s.CpuMicrosecondsPerRow ?? double.NaN)), 2));
        }

        medians.Write(output);
        var rest = samples.Where(s => s.Loader == TableInstantEndpoint.BaselineName).ToList();
        foreach (var (name, label) in new[] { (TableInstantEndpoint.SdkName, "Direct / REST"), (TableInstantEndpoint.SdkWriterName, "Sdk / REST") })
        {
            var build = samples.Where(s => s.Loader == name).ToList();
            if (rest.Count > 0 && build.Count > 0)
            {
                var speed = Statistics.Median(build.Select(s => s.RowsPerSecond)) / Statistics.Median(rest.Select(s => s.RowsPerSecond));
                var cpu = Statistics.Median(build.Select(s => s.CpuMicrosecondsPerRow ?? double.NaN)) / Statistics.Median(rest.Select(s => s.CpuMicrosecondsPerRow ?? double.NaN));
                output.WriteLine(Invariant($"{label}: rows/s {speed:N2}, CPU per row {cpu:N2}"));
            }
        }

        output.WriteLine();

        var checks = new MarkdownTable("target", "value", "target", "result");
        foreach (var target in targets)
        {
            checks.Add(target.Name, Format.Number(target.Value, target.Value < 100 ? 2 : 0), target.Target, valid ? target.Result : "INVALID");
        }

        checks.Write(output);
    }
}

/// <summary>One loader run against the instant endpoint.</summary>
/// <param name="Loader">Which loader: the <see cref="InstantVariant.Name"/> it ran as.</param>
/// <param name="Repeat">The turn, from 1.</param>
/// <param name="Rows">Rows the report says were written.</param>
/// <param name="Seconds">The report's elapsed seconds: the load proper, .NET start-up left out.</param>
/// <param name="Batches">Batch requests the endpoint answered.</param>
/// <param name="CpuSeconds">User and system CPU of the whole loader process, start-up included.</param>
/// <param name="LoaderCores">Cores the loader process kept busy over its whole life.</param>
/// <param name="EndpointCores">Cores the benchmark process (the endpoint) kept busy meanwhile.</param>
/// <param name="PeakMiB">The report's peak resident memory.</param>
/// <param name="CommandLine">The loader's command line, as run.</param>
/// <param name="Problem">Why the run cannot be trusted, or null.</param>
internal sealed record InstantSample(
    string Loader, int Repeat, long Rows, double Seconds, long Batches, double? CpuSeconds, double? LoaderCores, double? EndpointCores,
    double? PeakMiB, string CommandLine, string? Problem)
{
    public double RowsPerSecond => Seconds > 0 ? Math.Round(Rows / Seconds) : 0;

    public double? CpuMicrosecondsPerRow => CpuSeconds is { } cpu && Rows > 0 ? Math.Round(cpu * 1e6 / Rows, 2) : null;
}

internal sealed record InstantResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    IReadOnlyList<InstantSample> Runs,
    IReadOnlyList<TargetCheck> Targets,
    bool Valid,
    string LoadAverageAtEnd);
