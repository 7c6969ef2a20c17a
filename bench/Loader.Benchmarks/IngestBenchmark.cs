using System.Diagnostics;
using System.Globalization;
using Azure;
using Azure.Data.Tables;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// CSV into the Table service: the loader end to end, and two baselines measured in the same run, each phase on a
/// fresh Azurite (it slows down as it fills). Absolute speeds on a shared machine wander; the ratios hold.
/// </summary>
internal sealed class IngestBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "ingest";

    private const double CeilingTarget = 0.9;
    private const double PerRowTarget = 8;

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command, Invariant($"# Ingest: {settings.Rows:N0} rows x {settings.Columns} columns ({Shape(settings)}), {settings.Parallel} batches in flight"), settings, output, cancellationToken);
        var (csv, folder) = (bench.Csv, bench.Folder);
        var prepared = Prepare(csv);
        var perRowEntities = prepared.Entities.Take((int)settings.PerRowRowsUsed).ToArray();
        var perRowKeys = perRowEntities.Select(entity => (entity.PartitionKey, entity.RowKey)).Distinct().LongCount();
        output.WriteLine(Invariant($"- one request per row: in this process, the first {perRowEntities.Length:N0} of those entities through the SDK's TableClient.UpsertEntityAsync, {PerRowBaseline.InFlight} in flight"));
        output.WriteLine($"- loader: `dotnet {BenchPaths.LoaderDll} ...`, exactly as printed for each run below; its output and report are in {folder}");
        output.WriteLine();

        output.WriteLine("## Runs (each phase on a fresh Azurite; the table is counted after each)");
        var runs = new List<IngestRun>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            var number = repeat;
            Func<Task<Measurement>>[] phases =
            [
                () => MeasureLoaderAsync(bench.Data, folder, number, cancellationToken),
                () => MeasureDirectAsync("raw batch ceiling", bench.Data.DistinctKeys, settings.Parallel, number,
                    (client, adapter, token) => RawBatchCeiling.WriteAsync(adapter, prepared.Batches, settings.Parallel, token), cancellationToken),
                () => MeasureDirectAsync("one request per row", perRowKeys, PerRowBaseline.InFlight, number,
                    (client, adapter, token) => PerRowBaseline.WriteAsync(client, perRowEntities, token), cancellationToken),
            ];

            // Each repeat starts with another phase, so a machine growing busier or quieter favours none of them.
            var measured = new Measurement[phases.Length];
            for (var i = 0; i < phases.Length; i++)
            {
                var phase = (i + repeat - 1) % phases.Length;
                measured[phase] = await phases[phase]();
            }

            runs.Add(new IngestRun(repeat, measured[0], measured[1], measured[2]));
        }

        output.WriteLine();
        var summary = new[] { Summarize(runs.Select(r => r.Loader)), Summarize(runs.Select(r => r.RawBatchCeiling)), Summarize(runs.Select(r => r.OneRequestPerRow)) };
        var ratios = new[]
        {
            new TargetCheck("loader / raw batch ceiling", Ratio(runs, r => r.RawBatchCeiling), CeilingTarget, AtLeast: true),
            new TargetCheck("loader / one request per row", Ratio(runs, r => r.OneRequestPerRow), PerRowTarget, AtLeast: true),
        };
        var valid = runs.SelectMany(r => r.Measurements()).All(m => m.Problem is null);
        PrintSummary(summary, ratios, valid);

        bench.Finish(loadAverage => new IngestResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, runs, summary, ratios, valid, loadAverage));
        return BenchExitCodes.Of(valid, ratios);
    }

    private PreparedLoad Prepare(string csv)
    {
        var clock = Stopwatch.StartNew();
        var prepared = PreparedLoad.Create(csv, settings.Columns);
        if (prepared.Entities.Count != settings.Rows)
        {
            throw new InvalidDataException(Invariant($"{csv} mapped to {prepared.Entities.Count:N0} rows, not {settings.Rows:N0}"));
        }

        var rows = prepared.Batches.Sum(batch => batch.Entities.Count); // rows repeating a key in the same batch are superseded

        output.WriteLine(Invariant($"- raw batch ceiling: in this process, the rows mapped and batched by the loader's own mapper and batcher (untimed, {clock.Elapsed.TotalSeconds:N1} s): ")
            + Invariant($"{prepared.Batches.Count:N0} batches of {(double)rows / prepared.Batches.Count:N1} rows on average, sent through the loader's TablesAdapter (TableClient.SubmitTransactionAsync), {settings.Parallel} in flight"));
        return prepared;
    }

    private async Task<Measurement> MeasureLoaderAsync(Dataset data, string folder, int repeat, CancellationToken cancellationToken)
    {
        await using var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken);
        var reportPath = Path.Combine(folder, Invariant($"loader-{repeat}.json"));
        List<string> arguments = [.. LoaderArguments.For(data.Path, settings, reportPath, azurite.ConnectionString), "--Loader:ProgressInterval=00:00:01"];
        var azuriteCpu = new CpuMeter(AzuritePid(azurite));
        var run = await LoaderProcess.RunAsync(arguments, reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
        var azuriteCores = azuriteCpu.CoresUsed();
        output.WriteLine($"- run {repeat}, loader: `{run.CommandLine}`");
        var report = run.Report;
        return await VerifyAsync(azurite, repeat, new Measurement
        {
            Name = "loader",
            Rows = report?.RowsWritten ?? 0,
            Seconds = report?.ElapsedSeconds ?? run.WallSeconds,
            P50Ms = report?.LatencyMs.P50,
            P99Ms = report?.LatencyMs.P99,
            PeakMiB = report?.PeakMemoryMiB,
            Requests = report?.Requests ?? 0,
            AzuriteCores = azuriteCores,
            ClientCores = run.CoresUsed,
            Expected = data.DistinctKeys,
            RowsPerSecondByTenth = report is null ? null : Timeline.RowsPerSecondByTenth(report.Timeline),
            Problem = run.Problem(settings.Rows),
        }, cancellationToken);
    }

    private async Task<Measurement> MeasureDirectAsync(
        string name, long expected, int inFlight, int repeat, Func<TableClient, TablesAdapter, CancellationToken, Task<WriteTiming>> write, CancellationToken cancellationToken)
    {
        await using var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken);

        var (client, adapter) = await AzuriteTables.ConnectAsync(azurite, inFlight, cancellationToken);

        // The prepared input is a large heap: collect it now, so no full collection lands inside the timed part.
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        var azuriteCpu = new CpuMeter(AzuritePid(azurite));
        var timing = await write(client, adapter, cancellationToken);
        var azuriteCores = azuriteCpu.CoresUsed();
        var measurement = await VerifyAsync(azurite, repeat, new Measurement
        {
            Name = name,
            Rows = timing.Rows,
            Seconds = Math.Round(timing.Seconds, 3),
            P50Ms = Milliseconds(timing.Latency.Percentile(50)),
            P99Ms = Milliseconds(timing.Latency.Percentile(99)),
            Requests = timing.Requests,
            AzuriteCores = azuriteCores,
            ClientCores = timing.ClientCores,
            Expected = expected,
            RowsPerSecondByTenth = timing.Timeline.RowsPerSecondByTenth(),
            RowsPerSecondOverPerRowPrefix = timing.Timeline.RowsPerSecondOverFirst(settings.PerRowRowsUsed),
            Problem = timing.FailedRequests > 0 ? Invariant($"{timing.FailedRequests:N0} of {timing.Requests:N0} requests failed, the first with: {timing.FirstError}") : null,
        }, cancellationToken);
        return measurement;
    }

    /// <summary>Counts the table: a phase that lost rows measured nothing, and says so.</summary>
    private async Task<Measurement> VerifyAsync(AzuriteProcess azurite, int repeat, Measurement measurement, CancellationToken cancellationToken)
    {
        long? stored;
        var clock = Stopwatch.StartNew();
        try
        {
            stored = await TableCount.CountAsync(azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        }
        catch (RequestFailedException exception) when (exception.Status == 404)
        {
            stored = null; // the table was never created
        }

        var problems = new List<string>();
        if (stored != measurement.Expected)
        {
            problems.Add(Invariant($"LOST ROWS: the table holds {stored ?? 0:N0} entities, {measurement.Expected:N0} expected"));
        }

        if (measurement.Problem is { } problem)
        {
            problems.Add(problem);
        }

        var verified = measurement with { Stored = stored, Problem = problems.Count > 0 ? string.Join("; ", problems) : null };
        output.WriteLine(Invariant($"- run {repeat}, {verified.Name}: {verified.Rows:N0} rows in {verified.Seconds:N2} s = {verified.RowsPerSecond:N0} rows/s; table holds {stored ?? 0:N0} of {verified.Expected:N0} (counted in {clock.Elapsed.TotalSeconds:N1} s)")
            + (verified.Problem is { } invalid ? " -- INVALID: " + invalid : ""));
        if (verified.RowsPerSecondByTenth is { } tenths)
        {
            output.WriteLine($"  rows/s by tenth of the rows, as the table fills: {string.Join(' ', tenths.Select(Format.Thousands))}");
        }

        return verified;
    }

    private void PrintSummary(Measurement[] summary, IReadOnlyList<TargetCheck> ratios, bool valid)
    {
        var runs = settings.Repeat == 1 ? "1 run" : Invariant($"median of {settings.Repeat} runs");
        output.WriteLine($"## Results ({runs})");
        var results = new MarkdownTable("measurement", "rows", "seconds", "rows/s", "p50 ms", "p99 ms", "peak MiB");
        foreach (var m in summary)
        {
            results.Add(Label(m), Format.Number(m.Rows), Format.Number(m.Seconds, 2), Format.Number(m.RowsPerSecond), Format.Number(m.P50Ms, 1), Format.Number(m.P99Ms, 1), Format.Number(m.PeakMiB));
        }

        results.Write(output);
        var targets = new MarkdownTable("ratio of rows/s", "value", "target", "result");
        foreach (var ratio in ratios)
        {
            targets.Add(ratio.Name, Format.Number(ratio.Value, 2), ratio.Target, valid ? ratio.Result : "INVALID");
        }

        targets.Write(output);
        var (ceiling, perRow) = (summary[1], summary[2]);
        if (ceiling.RowsPerSecondOverPerRowPrefix is { } prefixRate && perRow.RowsPerSecond > 0)
        {
            // The loader fills a bigger table than the per-row baseline, and Azurite slows as a table fills.
            output.WriteLine(Invariant($"At the same table size (the first {perRow.Rows:N0} rows), batches wrote {prefixRate:N0} rows/s and one request per row {perRow.RowsPerSecond:N0}: ")
                + Invariant($"batching alone is worth {prefixRate / perRow.RowsPerSecond:N2}x on this service."));
            output.WriteLine();
        }

        output.WriteLine("## Where the time went (Azurite runs JavaScript on one thread: near 1.0 core it is the bottleneck)");
        var detail = new MarkdownTable("measurement", "requests", "rows/request", "Azurite cores", "writer cores", "stored / expected");
        foreach (var m in summary)
        {
            detail.Add(Label(m), Format.Number(m.Requests), Format.Number(m.RowsPerRequest, 1), Format.Number(m.AzuriteCores, 2), Format.Number(m.ClientCores, 2),
                Invariant($"{m.Stored ?? 0:N0} / {m.Expected:N0}"));
        }

        detail.Write(output);
        output.WriteLine(valid
            ? "Every phase left exactly the expected entities in its table."
            : "INVALID: a phase lost rows or failed (see the runs above); its numbers mean nothing. Exit code 3.");
    }

    private string Label(Measurement m) => m.Name switch
    {
        "one request per row" => Invariant($"{m.Name} ({PerRowBaseline.InFlight} in flight)"),
        _ => Invariant($"{m.Name} ({settings.Parallel} in flight)"),
    };

    /// <summary>Medians over the runs; memory is the largest, as a limit applies to the worst run.</summary>
    private static Measurement Summarize(IEnumerable<Measurement> measurements)
    {
        var runs = measurements.ToArray();
        return runs[0] with
        {
            Rows = (long)Statistics.Median(runs.Select(m => (double)m.Rows)),
            Seconds = Statistics.Median(runs.Select(m => m.Seconds)),
            P50Ms = Statistics.Median(runs.Select(m => m.P50Ms)),
            P99Ms = Statistics.Median(runs.Select(m => m.P99Ms)),
            PeakMiB = runs.Max(m => m.PeakMiB),
            Requests = (long)Statistics.Median(runs.Select(m => (double)m.Requests)),
            AzuriteCores = Statistics.Median(runs.Select(m => m.AzuriteCores)),
            ClientCores = Statistics.Median(runs.Select(m => m.ClientCores)),
            Stored = runs.Min(m => m.Stored),
            RowsPerSecondByTenth = null,
            RowsPerSecondOverPerRowPrefix = Statistics.Median(runs.Select(m => m.RowsPerSecondOverPerRowPrefix)),
            Problem = runs.Select(m => m.Problem).FirstOrDefault(p => p is not null),
        };
    }

    /// <summary>The loader's speed over a baseline's, run by run, then the median: paired, so a slow spell of the machine cancels out.</summary>
    private static double Ratio(IEnumerable<IngestRun> runs, Func<IngestRun, Measurement> baseline) =>
        Math.Round(Statistics.Median(runs.Select(run => baseline(run).RowsPerSecond > 0 ? run.Loader.RowsPerSecond / baseline(run).RowsPerSecond : 0)), 3);

    internal static string Shape(BenchSettings settings) => settings.Shape == Loader.DataGen.DataShape.Skewed
        ? "skewed: Zipf-sized partitions from 1 row to tens of thousands, unsorted composite keys, a few repeated keys"
        : Invariant($"uniform: {settings.Partitions:N0} partitions");

    private static double Milliseconds(TimeSpan latency) => Math.Round(latency.TotalMilliseconds, 2);

    internal static int? AzuritePid(AzuriteProcess azurite) =>
        ProcFs.FindByArgument("--tablePort", azurite.TablePort.ToString(CultureInfo.InvariantCulture));
}
