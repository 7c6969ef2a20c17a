using System.Globalization;
using Azure;
using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Shards.Plan;

/// <summary>
/// <c>plan</c>: cuts the input into shards, stores the load's manifest in the state folder and puts one message per shard
/// in the queue. Idempotent: a second run finds the manifest (it must be this input's and these settings', or it is
/// refused) and enqueues only the shards no run has enqueued yet, so a plan stopped halfway is finished by running it
/// again. Two planners at once store one manifest (it is created only where none exists).
/// </summary>
internal sealed partial class PlanCommand(
    IOptions<LoaderOptions> options,
    ShardedLoadFactory loads,
    InputOpener inputs,
    OutputFiles outputs,
    ShardPlanner planner,
    TimeProvider timeProvider,
    ILogger<PlanCommand> logger)
{
    private const int EnqueuedInParallel = 8;

    public async Task<CommandResult> RunAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value;
        if (OutputLocationCheck.OfShardedLoad(settings) is { Count: > 0 } conflicts)
        {
            return new CommandResult(LoadOutcomeKind.InvalidConfiguration, OutputLocationCheck.Describe(conflicts, "Nothing was planned: give the state folder a place of its own, away from the input."));
        }

        var load = loads.Create(settings.Shards);
        try
        {
            var proven = await outputs.For(load.Store.UrlOf(ShardStateStore.ManifestName))!.ProveWritableAsync(cancellationToken).ConfigureAwait(false);
            LogStateWritable(load.Store.Display, proven ?? "writable");
        }
        catch (OutputNotWritableException exception)
        {
            return new CommandResult(LoadOutcomeKind.Unavailable, $"Loader:Shards:State: cannot write '{load.Store.Display}': {exception.Message}. Nothing was planned.");
        }

        var source = await inputs.OpenAsync(settings.Input, settings.Csv.Compression, cancellationToken, settings.Format).ConfigureAwait(false);
        var input = source.Identify();
        var identity = ShardedLoad.Identity(settings);
        var manifest = await load.Store.ReadManifestAsync(cancellationToken).ConfigureAwait(false);
        var plannedNow = false;
        if (manifest is null)
        {
            var clock = timeProvider.GetTimestamp();
            var shards = await planner.CutAsync(settings, source, cancellationToken).ConfigureAwait(false);
            var candidate = new LoadManifest
            {
                LoadId = Guid.NewGuid().ToString("N"),
                CreatedAt = timeProvider.GetUtcNow(),
                By = settings.Shards.By,
                Input = source.Display,
                InputIdentity = input,
                Settings = identity,
                Queue = load.Queue.Display,
                Shards = shards,
                PlanSeconds = Math.Round(timeProvider.GetElapsedTime(clock).TotalSeconds, 3),
            };
            plannedNow = await load.Store.TryCreateManifestAsync(candidate, cancellationToken).ConfigureAwait(false);
            manifest = plannedNow ? candidate : await load.Store.ReadManifestAsync(cancellationToken).ConfigureAwait(false)
                ?? throw new InvalidDataException($"the manifest in '{load.Store.Display}' was there a moment ago and is gone");
        }

        if (LoadIdentity.Mismatch(manifest.InputIdentity, manifest.Settings, input, identity, "the load was planned") is { } mismatch)
        {
            return new CommandResult(LoadOutcomeKind.InvalidConfiguration,
                $"Loader:Shards:State '{load.Store.Display}' holds the plan of another load: {mismatch}. Give each load its own state folder, or delete this one to plan again.");
        }

        await load.Queue.EnsureExistsAsync(cancellationToken).ConfigureAwait(false);
        var enqueued = 0;
        await Parallel.ForEachAsync(
            manifest.Shards,
            new ParallelOptions { MaxDegreeOfParallelism = EnqueuedInParallel, CancellationToken = cancellationToken },
            async (shard, token) =>
            {
                if (await EnqueueAsync(load, manifest, shard, token).ConfigureAwait(false))
                {
                    Interlocked.Increment(ref enqueued);
                }
            }).ConfigureAwait(false);

        return new CommandResult(LoadOutcomeKind.Completed, Summary(manifest, load, plannedNow, enqueued));
    }

    /// <summary>
    /// Puts a shard's message in the queue unless a run of plan did already: the state is created first (so a worker can
    /// lease it), marked enqueued after the message is sent. A plan stopped between the two sends the message again when run
    /// again; the worker that meets the second message knows it for a duplicate.
    /// </summary>
    private async Task<bool> EnqueueAsync(ShardedLoad load, LoadManifest manifest, ShardSpec shard, CancellationToken cancellationToken)
    {
        var stored = await load.Store.ReadStateAsync(shard.Id, cancellationToken).ConfigureAwait(false);
        if (stored.State is null)
        {
            var state = new ShardState { LoadId = manifest.LoadId, Shard = shard.Id, Status = ShardStatus.Queued, UpdatedAt = timeProvider.GetUtcNow() };
            await load.Store.TryCreateStateAsync(state, cancellationToken).ConfigureAwait(false);
            stored = await load.Store.ReadStateAsync(shard.Id, cancellationToken).ConfigureAwait(false);
        }

        if (stored.State is not { Enqueued: false } waiting)
        {
            return false;
        }

        var messageId = await load.Queue.SendAsync(new ShardMessage(manifest.LoadId, shard.Id), TimeSpan.Zero, cancellationToken).ConfigureAwait(false);
        try
        {
            await load.Store.WriteStateAsync(waiting with { Enqueued = true, MessageId = messageId, UpdatedAt = timeProvider.GetUtcNow() }, leaseId: null, stored.ETag, cancellationToken)
                .ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status is 409 or 412)
        {
            // A worker took the shard from its message already, and keeps the state now.
        }

        return true;
    }

    private static string Summary(LoadManifest manifest, ShardedLoad load, bool plannedNow, int enqueued)
    {
        var c = CultureInfo.InvariantCulture;
        var cut = manifest.By == ShardKind.Key
            ? $"{manifest.Shards.Count} shards by partition-key hash (each reads the whole input and writes its bucket of keys)"
            : $"{manifest.Shards.Count} shards by input part ({manifest.Shards.Select(shard => shard.Part).Distinct(StringComparer.Ordinal).Count()} part(s), large ones cut into byte ranges at record boundaries)";
        var when = plannedNow
            ? string.Create(c, $"Planned load {manifest.LoadId}: {cut}; planning took {manifest.PlanSeconds:0.0} s.")
            : string.Create(c, $"Load {manifest.LoadId} was planned already ({manifest.CreatedAt:u}): {cut}.");
        return string.Join(Environment.NewLine,
            when,
            string.Create(c, $"  input  {manifest.Input}"),
            string.Create(c, $"  queue  {load.Queue.Display}: {enqueued} shard(s) enqueued now, {manifest.Shards.Count - enqueued} enqueued before"),
            string.Create(c, $"  state  {load.Store.Display}"),
            "Next: run work (any number of processes, same settings) until the queue is empty, then status.");
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Loader:Shards:State {State}: {Detail}")]
    private partial void LogStateWritable(string state, string detail);
}
