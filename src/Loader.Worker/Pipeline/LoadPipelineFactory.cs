using Loader.Abstractions;
using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Outputs;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Terminal;
using Loader.Worker.Security;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Pipeline;

/// <summary>
/// Builds the pipeline of a load from its settings: its input, target, rejects file, resume planner and report, each
/// handed to the pipeline ready to use, which then only runs its stages. Hosting registers one with the services every
/// load shares; each shard of a sharded load and each pass of <c>--estimate</c> is built by it too, from its own settings.
/// Building does no I/O and cannot fail: what a setting names is found and checked when the load runs, so it is in the report.
/// </summary>
internal sealed class LoadPipelineFactory(
    InputOpener inputs,
    OutputFiles outputs,
    OutputPreflight preflight,
    ILoggerFactory loggerFactory,
    Redaction redaction,
    TimeProvider timeProvider)
{
    /// <param name="settings">The load's settings, validated.</param>
    /// <param name="backend">Where it writes.</param>
    /// <param name="statistics">Where it counts; the run's own.</param>
    /// <param name="terminal">Draws a progress bar on an interactive terminal; null for none.</param>
    /// <param name="shard">Narrows the load to one shard of a sharded load; null for the whole input.</param>
    public LoadPipeline Create(LoaderOptions settings, IBackendAdapter backend, LoadStatistics statistics, TerminalProgress? terminal = null, IShardScope? shard = null)
    {
        var keyShard = shard?.Buckets is not null;
        var parts = new LoadPipelineParts(
            new LoadInput(inputs, settings, backend, shard is null ? null : shard.Narrow),
            new LoadTarget(backend, settings),
            preflight,
            outputs,
            new ResumePointFinder(settings, canSkipUnread: !keyShard, statistics, loggerFactory.CreateLogger<ResumePointFinder>()),
            new RejectsOutput(settings.RejectsPath, settings.MaxRejects, outputs, statistics, loggerFactory, redaction, timeProvider),
            new LoadReportBuilder(settings, backend.Name, statistics, timeProvider, shard?.Id, keyShard),
            terminal,
            shard?.Buckets);
        return new LoadPipeline(settings, backend, parts, statistics, loggerFactory, timeProvider);
    }
}

/// <summary>What a <see cref="LoadPipeline"/> is handed, built from its settings.</summary>
/// <param name="Input">Finds, opens and fits the input.</param>
/// <param name="Target">Makes the table or container ready.</param>
/// <param name="Preflight">Proves the outputs writable.</param>
/// <param name="Outputs">Turns output settings into files and blobs.</param>
/// <param name="Resume">Decides where a load that keeps a checkpoint starts.</param>
/// <param name="Rejects">Opens and stores the rejects file.</param>
/// <param name="Reports">Assembles the report.</param>
/// <param name="Terminal">Draws a progress bar on an interactive terminal; null for none.</param>
/// <param name="Buckets">A key shard's filter; null unless the run is one.</param>
internal sealed record LoadPipelineParts(
    LoadInput Input,
    LoadTarget Target,
    OutputPreflight Preflight,
    OutputFiles Outputs,
    ResumePointFinder Resume,
    RejectsOutput Rejects,
    LoadReportBuilder Reports,
    TerminalProgress? Terminal,
    KeyBucketFilter? Buckets);
