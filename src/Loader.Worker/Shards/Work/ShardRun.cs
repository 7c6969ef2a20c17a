using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Configuration;

namespace Loader.Worker.Shards.Work;

/// <summary>
/// Loads one shard: the loader's own pipeline (<see cref="LoadPipeline"/>), narrowed to the shard, with the shard's
/// checkpoint, rejects and report in the state folder, so the outputs preflight, checkpoints and resuming work for a
/// shard as for a load. Statistics are the shard's own; the backend's client is shared by the worker's shards.
/// </summary>
internal sealed class ShardRun(
    IConfiguration configuration,
    IBackendAdapter backend,
    LoadPipelineFactory pipelines,
    LoaderMetrics metrics,
    ReportPublisher publisher,
    TimeProvider timeProvider)
{
    /// <summary>
    /// Runs the shard and stores its report. <paramref name="stopReading"/> stops it gracefully (what was read is written,
    /// within <c>Loader:ShutdownGracePeriod</c>); <paramref name="abort"/> stops it at once (the lease was lost: another
    /// worker may have the shard).
    /// </summary>
    public async Task<LoadResult> RunAsync(LoadManifest manifest, ShardSpec shard, ShardStateStore store, CancellationToken stopReading, CancellationToken abort)
    {
        var settings = SettingsOf(shard, store);
        using var cut = CancellationTokenSource.CreateLinkedTokenSource(abort);
        using var onStop = stopReading.Register(() => cut.CancelAfter(settings.ShutdownGracePeriod));
        using var reading = CancellationTokenSource.CreateLinkedTokenSource(stopReading, abort);
        var pipeline = pipelines.Create(settings, backend, new LoadStatistics(metrics, timeProvider), shard: new ShardScope(manifest, shard));
        var result = await pipeline.RunAsync(reading.Token, cut.Token).ConfigureAwait(false);

        // Status merges the shards' reports: a shard whose report is lost is not settled, however its rows went.
        return await publisher.PublishAsync(result, new ReportTargets(settings.ReportPath)).ConfigureAwait(false);
    }

    /// <summary>The load's settings with the shard's outputs in the state folder, bound as the host binds them.</summary>
    private LoaderOptions SettingsOf(ShardSpec shard, ShardStateStore store)
    {
        var overrides = new Dictionary<string, string?>
        {
            ["Loader:CheckpointPath"] = store.UrlOf(ShardStateStore.CheckpointOf(shard.Id)),
            ["Loader:ReportPath"] = store.UrlOf(ShardStateStore.ReportOf(shard.Id)),
            ["Loader:RejectsPath"] = store.UrlOf(ShardStateStore.RejectsOf(shard.Id)),

            // A shard writes no HTML report: the load's own Loader:HtmlReportPath is neither probed nor compared per shard.
            ["Loader:HtmlReportPath"] = "",
        };
        return new ConfigurationBuilder().AddConfiguration(configuration).AddInMemoryCollection(overrides).Build()
            .GetSection(LoaderOptions.SectionName).Get<LoaderOptions>() ?? throw new InvalidOperationException("no Loader settings");
    }
}
