using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Estimate;

/// <summary>
/// <c>--estimate</c>: reads the whole input through the load's own pipeline at dry-run speed, counting rows and bytes
/// by partition key; writes the first <c>Loader:Estimate:SampleRows</c> rows to the target through the same pipeline
/// (retries, pacing and all) to measure request units per row and rows per second, and ramps up from there until it
/// finds what limits the pace (<see cref="SampleRamp"/>); reads the target's provisioned throughput where it can; and
/// plans (<see cref="EstimateCalculator"/>). Neither pass writes a report, rejects or checkpoint.
/// </summary>
internal sealed partial class LoadEstimator(
    IConfiguration configuration,
    IBackendAdapter backend,
    LoadPipelineFactory pipelines,
    LoaderMetrics metrics,
    ILoggerFactory loggerFactory,
    TimeProvider timeProvider,
    Reporting.Terminal.TerminalProgress? terminal = null)
{
    private readonly ILogger _logger = loggerFactory.CreateLogger<LoadEstimator>();

    public async Task<LoadEstimate> EstimateAsync(CancellationToken cancellationToken)
    {
        var settings = Settings();
        var census = new PartitionCensus(backend);
        var dryRunSettings = Settings();
        dryRunSettings.DryRun = true;
        dryRunSettings.MaxRowsPerSecond = null; // the dry run reads as fast as it can; caps are for the load
        dryRunSettings.MaxRequestUnitsPerSecond = null;
        LogReading(settings.Input);
        var (dryRunOutcome, dryRun) = await DryRunAsync(dryRunSettings, census, cancellationToken).ConfigureAwait(false);
        if (dryRunOutcome.Kind is not (LoadOutcomeKind.Completed or LoadOutcomeKind.RejectLimitExceeded))
        {
            return LoadEstimate.Unplanned(dryRun);
        }

        LoadReport? sample = null;
        RampOutcome? ramp = null;
        var note = SampleNote(settings);
        if (note is null)
        {
            LogSampling(settings.Estimate.SampleRows, settings.Estimate.RampTime.TotalSeconds);
            var run = await new SampleRamp(pipelines, metrics, timeProvider, loggerFactory.CreateLogger<SampleRamp>(), terminal)
                .RunAsync(Settings, backend, dryRun.RowsRead, cancellationToken).ConfigureAwait(false);
            if (run.Failed)
            {
                return LoadEstimate.Unplanned(run.FirstStep);
            }

            (sample, ramp) = (run.FirstStep, run.Outcome);
        }

        var provisioned = settings.DryRun || backend is not IProvisionedThroughput target
            ? null
            : await target.ReadProvisionedThroughputAsync(cancellationToken).ConfigureAwait(false);
        return EstimateCalculator.Plan(settings, new EstimateCalculator.Measurements(dryRun, census.Partitions, census.Capped, census.Untracked, sample, note, provisioned) { Ramp = ramp });
    }

    /// <summary>Why no sample is written, or null when one is.</summary>
    private static string? SampleNote(LoaderOptions settings) => settings switch
    {
        { DryRun: true } => "none: a dry run writes nothing (Loader:DryRun)",
        { Estimate.SampleRows: <= 0 } => "none: --sample 0",
        { WriteMode: Abstractions.WriteMode.Delete } =>
            "none: under WriteMode Delete the sample would delete the stored entities of its rows; measure with --Loader:WriteMode=Upsert into a scratch table or container",
        { WriteMode: Abstractions.WriteMode.Replace } =>
            "none: under WriteMode Replace the sample's rows would be rejects wherever nothing is stored yet; measure with --Loader:WriteMode=Upsert into a scratch table or container",
        { WriteMode: Abstractions.WriteMode.Insert } =>
            "none: under WriteMode Insert the sample's rows would be conflicts when the load runs; measure with --Loader:WriteMode=Upsert into a scratch table or container",
        _ => null,
    };

    /// <summary>The settings as bound from configuration, freshly, with the outputs cleared: an estimate leaves no report, rejects or checkpoint.</summary>
    private LoaderOptions Settings()
    {
        var settings = configuration.GetSection(LoaderOptions.SectionName).Get<LoaderOptions>() ?? new LoaderOptions();
        settings.ReportPath = null;
        settings.HtmlReportPath = null;
        settings.RejectsPath = null;
        settings.CheckpointPath = null;
        settings.Check = false;
        return settings;
    }

    private Task<LoadResult> DryRunAsync(LoaderOptions settings, PartitionCensus census, CancellationToken cancellationToken) =>
        pipelines.Create(settings, census, new LoadStatistics(metrics, timeProvider), terminal).RunAsync(cancellationToken, cancellationToken);

    [LoggerMessage(Level = LogLevel.Information, Message = "Estimate: reading all of {Input} without writing")]
    private partial void LogReading(string input);

    [LoggerMessage(Level = LogLevel.Information, Message = "Estimate: writing the first {Rows:N0} rows to the target to measure them, then ramping up for at most {RampSeconds:N1} s more")]
    private partial void LogSampling(int rows, double rampSeconds);
}
