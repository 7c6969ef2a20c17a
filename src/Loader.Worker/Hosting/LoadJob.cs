using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Hosting;

/// <summary>
/// Runs one load and stops the host: a job, not a daemon. A stop request (SIGTERM, Ctrl-C) stops reading at
/// once and gives batches in flight <c>Loader:ShutdownGracePeriod</c> to finish; the report is written either way
/// (<see cref="ReportPublisher"/>) and the process exits with the load's exit code.
/// </summary>
internal sealed partial class LoadJob(
    LoadPipeline pipeline,
    IOptions<LoaderOptions> options,
    IHostApplicationLifetime lifetime,
    TimeProvider timeProvider,
    SummaryOutput summaryOutput,
    ReportPublisher publisher,
    ILogger<LoadJob> logger) : BackgroundService
{
    /// <summary>The exit code of the load, once it has ended.</summary>
    public int? ExitCode { get; private set; }

    public LoadReport? Report { get; private set; }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var settings = options.Value;

        // Before the load, not inside it: a load that stops at start still writes its report, and here that is the harm.
        if (OutputLocationCheck.OfLoad(settings) is { Count: > 0 } conflicts)
        {
            ExitCode = await RefuseAsync(conflicts).ConfigureAwait(false);
            Environment.ExitCode = ExitCode.Value;
            lifetime.StopApplication();
            return;
        }

        using var abort = new CancellationTokenSource(Timeout.InfiniteTimeSpan, timeProvider);
        var onStop = stoppingToken.Register(() =>
        {
            LogStopping(settings.ShutdownGracePeriod.TotalSeconds);
            abort.CancelAfter(settings.ShutdownGracePeriod);
        });

        LoadResult result;
        try
        {
            result = await pipeline.RunAsync(stoppingToken, abort.Token).ConfigureAwait(false);
        }
        catch (Exception exception)
        {
            await onStop.DisposeAsync().ConfigureAwait(false);
            LogUnexpected(exception);
            ExitCode = ExitCodes.InternalError;
            Environment.ExitCode = ExitCodes.InternalError;
            lifetime.StopApplication();
            return;
        }

        // The load is over: the host's own stop, which StopApplication below sets off and which may cancel the
        // stopping token before this method returns, is no stop request.
        await onStop.DisposeAsync().ConfigureAwait(false);

        var report = (await publisher.PublishAsync(result, new ReportTargets(settings.ReportPath, HtmlReportLocation.Setting(settings), PrintWhenLost: true)).ConfigureAwait(false)).Report;
        LogFinished(report.Outcome, report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSuperseded, report.RowsFailed, report.ElapsedSeconds, report.ExitCode);
        await summaryOutput.WriteAsync(SummaryWriter.Format(report), timeProvider).ConfigureAwait(false);
        Report = report;
        ExitCode = report.ExitCode;
        Environment.ExitCode = report.ExitCode;
        lifetime.StopApplication();
    }

    /// <summary>Outputs at the input's place or at one another's: each said, nothing loaded or written (no report either), exit 2.</summary>
    private async Task<int> RefuseAsync(IReadOnlyList<PreflightCheck> conflicts)
    {
        var message = OutputLocationCheck.Describe(conflicts, "Nothing was loaded or written: give each output a place of its own, away from the input.");
        LogRefused(message);
        await summaryOutput.WriteAsync(message, timeProvider).ConfigureAwait(false);
        return ExitCodes.InvalidConfiguration;
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Stop requested: reading stopped; batches in flight get {GraceSeconds} s to finish")]
    private partial void LogStopping(double graceSeconds);

    [LoggerMessage(Level = LogLevel.Error, Message = "{Message}")]
    private partial void LogRefused(string message);

    [LoggerMessage(Level = LogLevel.Critical, Message = "The load failed unexpectedly")]
    private partial void LogUnexpected(Exception exception);

    [LoggerMessage(Level = LogLevel.Information, Message = "Load {Outcome}: {RowsRead} read, {RowsWritten} written, {RowsRejected} rejected, {RowsSuperseded} superseded, {RowsFailed} failed in {ElapsedSeconds} s; exit code {ExitCode}")]
    private partial void LogFinished(ReportOutcome outcome, long rowsRead, long rowsWritten, long rowsRejected, long rowsSuperseded, long rowsFailed, double elapsedSeconds, int exitCode);
}
