using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Shards.Status;

/// <summary>
/// <c>status</c>: reads the manifest, every shard's state and its last run's report, and merges them into one report
/// for the whole input (<see cref="LoadStatus"/>): which shards are done, running, waiting or poisoned, and whether every
/// row of the input is accounted for. Reads only (the JSON goes to <c>Loader:ReportPath</c> when one is given). Exit 0
/// when the load is complete and reconciled, 1 when a shard is poisoned or the load does not reconcile, 5 while shards
/// still wait or run.
/// </summary>
internal sealed class StatusCommand(IOptions<LoaderOptions> options, ShardedLoadFactory loads, OutputFiles outputs, TimeProvider timeProvider)
{
    private const int ReadInParallel = 8;

    public async Task<(CommandResult Result, LoadStatus? Status)> RunAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value;
        if (OutputLocationCheck.OfShardedLoad(settings) is { Count: > 0 } conflicts)
        {
            return (new CommandResult(LoadOutcomeKind.InvalidConfiguration, OutputLocationCheck.Describe(conflicts, "Nothing was written: give each output a place of its own, away from the input.")), null);
        }

        var load = loads.Create(settings.Shards);
        var manifest = await load.Store.ReadManifestAsync(cancellationToken).ConfigureAwait(false);
        if (manifest is null)
        {
            return (new CommandResult(LoadOutcomeKind.InvalidConfiguration, $"No load is planned in {load.Store.Display}: run plan first."), null);
        }

        var shards = new (ShardSpec Spec, StoredShardState Stored, LoadReport? Report)[manifest.Shards.Count];
        await Parallel.ForEachAsync(
            Enumerable.Range(0, manifest.Shards.Count),
            new ParallelOptions { MaxDegreeOfParallelism = ReadInParallel, CancellationToken = cancellationToken },
            async (index, token) =>
            {
                var spec = manifest.Shards[index];
                var stored = await load.Store.ReadStateAsync(spec.Id, token).ConfigureAwait(false);
                shards[index] = (spec, stored, await load.Store.ReadReportAsync(spec.Id, token).ConfigureAwait(false));
            }).ConfigureAwait(false);

        var status = StatusMerge.Merge(
            manifest,
            load,
            shards,
            await load.Queue.CountAsync(cancellationToken).ConfigureAwait(false),
            await load.Queue.PoisonCountAsync(cancellationToken).ConfigureAwait(false),
            timeProvider.GetUtcNow(),
            settings.Shards.VisibilityTimeout);
        if (settings.ReportPath is { Length: > 0 } path)
        {
            await OutputWriteRetry.Create(timeProvider).ExecuteAsync(
                async token => await outputs.For(path)!.WriteJsonAsync(status, ReportWriter.JsonOptions, token).ConfigureAwait(false),
                cancellationToken).ConfigureAwait(false);
        }

        // A load not yet complete reads as one stopped before the end of its input.
        var outcome = status.Shards.Poisoned > 0 || (status.Complete && !status.Reconciled) ? LoadOutcomeKind.CompletedWithFailures
            : !status.Complete ? LoadOutcomeKind.Stopped
            : LoadOutcomeKind.Completed;
        return (new CommandResult(outcome, StatusMerge.Format(status)), status);
    }
}
