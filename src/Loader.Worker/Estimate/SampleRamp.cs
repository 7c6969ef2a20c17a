using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Estimate;

/// <summary>
/// The sample of <c>--estimate</c>, written in steps until it finds what limits the pace. The first step writes the
/// <c>--sample</c> rows at the batches in flight an adaptive load starts with, whole; each next step writes twice the rows
/// of the input's start (up to all of it) at twice the batches in flight (up to <c>Loader:MaxParallelBatches</c>), for as
/// long as <c>Loader:Estimate:RampTime</c> allows after the first. It stops at the first step the service throttles —
/// which then runs on for <see cref="s_throttledMeasurement"/> after its first throttle to measure what the service lets
/// through, then is cut —, at the latency knee, when its time is up (the step under way is cut), or once it wrote the
/// whole input at the most batches in flight. The steps write the load's own first rows as the load writes them (the
/// write modes whose rows the load then writes again the same, see <see cref="LoadEstimator"/>), so a step cut short or
/// a row written twice leaves nothing the load does not write over.
/// </summary>
internal sealed partial class SampleRamp(
    LoadPipelineFactory pipelines,
    LoaderMetrics metrics,
    TimeProvider timeProvider,
    ILogger<SampleRamp> logger,
    Reporting.Terminal.TerminalProgress? terminal = null)
{
    /// <summary>The batches in flight of the first step: where the adaptive limiter starts a load.</summary>
    private const int FirstConcurrency = 4;

    /// <summary>
    /// Retries per batch within a step: its batches may be throttled many times over while the step keeps more in flight
    /// than the service lets through; the step is cut before they would run out, and a row it leaves unwritten is the load's.
    /// </summary>
    private const int StepMaxAttempts = 1000;

    /// <summary>How long a throttled step runs on after its first throttle: long enough that one batch of 100 rows is a few percent of what a budget of a few hundred rows a second lets through.</summary>
    private static readonly TimeSpan s_throttledMeasurement = TimeSpan.FromSeconds(3);

    /// <summary>Writes the steps.</summary>
    /// <param name="settings">Fresh settings of the load for each step (each step changes its own).</param>
    /// <param name="backend">The target.</param>
    /// <param name="records">Records the input holds (the dry run's count): no step writes more.</param>
    /// <param name="cancellationToken">Stops the ramp.</param>
    public async Task<RampRun> RunAsync(Func<LoaderOptions> settings, IBackendAdapter backend, long records, CancellationToken cancellationToken)
    {
        var first = settings();
        var maxConcurrency = first.MaxParallelBatches;
        var probe = new SampleProbe(backend, timeProvider);
        var steps = new List<RampStep>();
        var concurrency = Math.Min(FirstConcurrency, maxConcurrency);
        long rows = first.Estimate.SampleRows;
        double? rampEnds = null;
        LoadReport? firstReport = null;
        for (var step = 1; ; step++)
        {
            using var stop = new CancellationTokenSource(Timeout.InfiniteTimeSpan, timeProvider);
            using var stopped = cancellationToken.Register(stop.Cancel);
            if (rampEnds is { } ends)
            {
                var left = ends - probe.Now;
                if (left <= 0)
                {
                    break;
                }

                stop.CancelAfter(TimeSpan.FromSeconds(left));
            }

            // The first step is the --sample rows, written whole however the service answers.
            probe.BeginStep(step, step == 1 ? null : () => stop.CancelAfter(s_throttledMeasurement));
            LogStep(step, rows, concurrency);
            var stepSettings = settings();
            stepSettings.Concurrency = ConcurrencyMode.Fixed;
            stepSettings.MaxParallelBatches = concurrency;
            stepSettings.Retry.MaxAttempts = StepMaxAttempts;
            var result = await pipelines.Create(stepSettings, probe, new LoadStatistics(metrics, timeProvider), terminal)
                .RunAsync(rows, stop.Token, stop.Token).ConfigureAwait(false);
            cancellationToken.ThrowIfCancellationRequested();
            if (result.Outcome.Kind is LoadOutcomeKind.InvalidConfiguration or LoadOutcomeKind.Unavailable or LoadOutcomeKind.UnexpectedError)
            {
                return new RampRun(result.Report, null, Failed: true);
            }

            firstReport ??= result.Report;
            rampEnds ??= probe.Now + first.Estimate.RampTime.TotalSeconds;
            // A step that wrote nothing (an empty input, every row refused) has nothing to show a bigger one.
            if (RampStep.Measure(step, concurrency, rows, [.. probe.Attempts.Where(attempt => attempt.Step == step)], stop.IsCancellationRequested) is not { } measured)
            {
                break;
            }

            steps.Add(measured);
            if (RampOutcome.Stops(steps) || (rows >= records && concurrency >= maxConcurrency))
            {
                break;
            }

            concurrency = Math.Min(concurrency * 2, maxConcurrency);
            rows = Math.Min(rows * 2, Math.Max(records, rows));
        }

        return new RampRun(firstReport!, RampOutcome.Conclude(steps, probe.Attempts, maxConcurrency, probe.Now), Failed: false);
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Estimate: sample step {Step}: the first {Rows:N0} rows at {Concurrency} batches in flight")]
    private partial void LogStep(int step, long rows, int concurrency);
}

/// <summary>What the ramp wrote: the first step's report (the sample's), and what the steps found.</summary>
/// <param name="FirstStep">The report of the first step; of the step that failed when <paramref name="Failed"/>.</param>
/// <param name="Outcome">The steps and the limit they found; null when none wrote anything.</param>
/// <param name="Failed">A step could not run (settings, target unreachable, a defect): the estimate fails with its report.</param>
internal sealed record RampRun(LoadReport FirstStep, RampOutcome? Outcome, bool Failed);
