using Loader.Benchmarks;

// Benchmarks print numbers, measured as ratios to baselines taken in the same run; see bench/README.md.
// Usage: Loader.Benchmarks ingest|dryrun|concurrency|throttle|instant|blobread|compressed|formats|scaleout|verify|startup [options]   (exit codes: BenchExitCodes)
using var stop = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    // Stop politely, so the Azurite and loader processes this run started are killed on the way out.
    e.Cancel = true;
    stop.Cancel();
};

try
{
    return args switch
    {
        [IngestBenchmark.Command, .. var rest] =>
            await new IngestBenchmark(BenchSettings.Parse(rest, BenchSettings.IngestDefaults), Console.Out).RunAsync(stop.Token),
        [DryRunBenchmark.Command, .. var rest] =>
            await new DryRunBenchmark(BenchSettings.Parse(rest, BenchSettings.DryRunDefaults), Console.Out).RunAsync(stop.Token),
        [ConcurrencyBenchmark.Command, .. var rest] =>
            await new ConcurrencyBenchmark(BenchSettings.Parse(rest, BenchSettings.ConcurrencyDefaults), Console.Out).RunAsync(stop.Token),
        [InstantBenchmark.Command, .. var rest] =>
            await new InstantBenchmark(BenchSettings.Parse(rest, BenchSettings.InstantDefaults), Console.Out).RunAsync(stop.Token),
        [BlobReadBenchmark.Command, .. var rest] =>
            await new BlobReadBenchmark(BenchSettings.Parse(rest, BenchSettings.BlobReadDefaults), Console.Out).RunAsync(stop.Token),
        [FormatsBenchmark.Command, .. var rest] =>
            await new FormatsBenchmark(BenchSettings.Parse(rest, BenchSettings.DryRunDefaults), Console.Out).RunAsync(stop.Token),
        [CompressedInputBenchmark.Command, .. var rest] =>
            await new CompressedInputBenchmark(BenchSettings.Parse(rest, BenchSettings.DryRunDefaults), Console.Out).RunAsync(stop.Token),
        [ScaleOutBenchmark.Command, .. var rest] =>
            await new ScaleOutBenchmark(BenchSettings.Parse(rest, BenchSettings.ScaleOutDefaults), Console.Out).RunAsync(stop.Token),
        [VerifyBenchmark.Command, .. var rest] =>
            await new VerifyBenchmark(BenchSettings.Parse(rest, BenchSettings.IngestDefaults), Console.Out).RunAsync(stop.Token),
        [StartupBenchmark.Command, .. var rest] =>
            await new StartupBenchmark(BenchSettings.Parse(rest, BenchSettings.StartupDefaults), Console.Out).RunAsync(stop.Token),
        [ThrottleBenchmark.Command, .. var rest] =>
            await new ThrottleBenchmark(BenchSettings.Parse(rest, BenchSettings.ThrottleDefaults), Console.Out).RunAsync(stop.Token),
        _ => throw new ArgumentException("name a benchmark"),
    };
}
catch (ArgumentException exception)
{
    await Console.Error.WriteLineAsync(exception.Message);
    await Console.Error.WriteLineAsync($"usage: Loader.Benchmarks ingest|dryrun|concurrency|throttle|instant|blobread|compressed|formats|scaleout|verify|startup {BenchSettings.Options}");
    return BenchExitCodes.Usage;
}
catch (OperationCanceledException) when (stop.IsCancellationRequested)
{
    await Console.Error.WriteLineAsync("stopped");
    return 130;
}
