using System.Globalization;
using Loader.Worker.Backends;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Html;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Hosting;

/// <summary>
/// Runs one load and stops the host: a job, not a daemon. A stop request (SIGTERM, Ctrl-C) stops reading at
/// once and gives batches in flight <c>Loader:ShutdownGracePeriod</c> to finish; the report is written either way
/// and the process exits with the load's exit code.
/// </summary>
internal sealed partial class LoadJob(
    LoadPipeline pipeline,
    IOptions<LoaderOptions> options,
    IHostApplicationLifetime lifetime,
    TimeProvider timeProvider,
    SummaryOutput summaryOutput,
    OutputFiles outputs,
    ILogger<LoadJob> logger) : BackgroundService
{
    /// <summary>The exit code of the load, once it has ended.</summary>
    public int? ExitCode { get; private set; }

    public LoadReport? Report { get; private set; }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var settings = options.Value;
        if (settings.Check)
        {
            try
            {
                ExitCode = await CheckAsync(stoppingToken).ConfigureAwait(false);
            }
            catch (Exception exception)
            {
                // Never the host's "BackgroundService failed" and exit 0: a check that could not run has not passed.
                LogUnexpected(exception);
                ExitCode = ExitCodes.InternalError;
            }

            Environment.ExitCode = ExitCode.Value;
            lifetime.StopApplication();
            return;
        }

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

        LoadReport report;
        try
        {
            report = (await pipeline.RunAsync(stoppingToken, abort.Token).ConfigureAwait(false)).Report;
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

        Report = await PublishAsync(report, settings).ConfigureAwait(false);
        ExitCode = Report.ExitCode;
        Environment.ExitCode = Report.ExitCode;
        lifetime.StopApplication();
    }

    /// <summary>
    /// Writes the HTML and JSON reports where the settings say, retrying as any output. A report that cannot be written is never a
    /// silent success: the load's exit code becomes <see cref="ExitCodes.OutputFailed"/> (unless it already failed),
    /// and the report goes to standard output instead, so the run's numbers are not lost with it.
    /// </summary>
    private async Task<LoadReport> PublishAsync(LoadReport report, LoaderOptions settings)
    {
        // The HTML report first, so that the JSON report, written after it, says if it could not be stored. A JSON report
        // that cannot be stored outranks that: its numbers then go to standard output, and its message says so.
        if (await TryWriteAsync(HtmlReportLocation.Setting(settings), (file, token) => HtmlReport.WriteAsync(report, file, token)).ConfigureAwait(false) is { } html)
        {
            LogHtmlReportNotWritten(html.Where, html.Reason);
            report = OutputFailed(report, $"the HTML report could not be written to {html.Where} ({html.Reason})", outranks: false);
        }

        if (await TryWriteAsync(settings.ReportPath, (file, token) => ReportWriter.WriteAsync(report, file, token)).ConfigureAwait(false) is { } json)
        {
            LogReportNotWritten(json.Where, json.Reason);
            report = OutputFailed(report, $"the report could not be written to {json.Where} ({json.Reason}); it follows on standard output", outranks: true);
            await summaryOutput.WriteJsonAsync(report, ReportWriter.JsonOptions).ConfigureAwait(false);
        }

        LogFinished(report.Outcome, report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSuperseded, report.RowsFailed, report.ElapsedSeconds, report.ExitCode);
        await summaryOutput.WriteAsync(SummaryWriter.Format(report), timeProvider).ConfigureAwait(false);
        return report;
    }

    /// <summary><c>--check</c>: prints one line per check and exits 0 when all pass; else 10 when a check failed unexpectedly, 2 when a setting cannot be right, 3 otherwise.</summary>
    private async Task<int> CheckAsync(CancellationToken cancellationToken)
    {
        var clock = timeProvider.GetTimestamp();
        var checks = await pipeline.CheckAsync(cancellationToken).ConfigureAwait(false);
        var failed = checks.Where(check => !check.Ok).ToList();
        var text = new System.Text.StringBuilder();
        foreach (var check in checks)
        {
            text.AppendLine(check.ToString());
        }

        text.Append(failed.Count == 0
            ? string.Create(CultureInfo.InvariantCulture, $"Ready to load: {checks.Count} checks passed in {timeProvider.GetElapsedTime(clock).TotalSeconds:0.0} s.")
            : string.Create(CultureInfo.InvariantCulture, $"Not ready: {failed.Count} of {checks.Count} checks failed."));
        await summaryOutput.WriteAsync(text.ToString(), timeProvider).ConfigureAwait(false);
        return failed.Count == 0 ? ExitCodes.Success
            : failed.Any(check => check.Failure == PreflightFailure.Unexpected) ? ExitCodes.InternalError
            : failed.Any(check => check.Failure == PreflightFailure.InvalidSetting) ? ExitCodes.InvalidConfiguration
            : ExitCodes.Unavailable;
    }

    /// <summary>Outputs at the input's place or at one another's: each said, nothing loaded or written (no report either), exit 2.</summary>
    private async Task<int> RefuseAsync(IReadOnlyList<PreflightCheck> conflicts)
    {
        var message = OutputLocationCheck.Describe(conflicts, "Nothing was loaded or written: give each output a place of its own, away from the input.");
        LogRefused(message);
        await summaryOutput.WriteAsync(message, timeProvider).ConfigureAwait(false);
        return ExitCodes.InvalidConfiguration;
    }

    /// <summary>
    /// Writes one report through the output its setting names (a path or a blob URL), retrying as any output; returns
    /// where and why it could not be stored, or null when it was (or none is configured).
    /// </summary>
    private async Task<(string Where, string Reason)?> TryWriteAsync(string? setting, Func<OutputFile, CancellationToken, Task> write)
    {
        if (string.IsNullOrWhiteSpace(setting))
        {
            return null;
        }

        try
        {
            await OutputWriteRetry.Create(timeProvider).ExecuteAsync(
                async token => await write(outputs.For(setting)!, token).ConfigureAwait(false),
                CancellationToken.None).ConfigureAwait(false);
            return null;
        }
        catch (Exception exception) when (OutputWriteRetry.IsOutputFailure(exception) || exception is FormatException or InvalidOperationException)
        {
            return (OutputFiles.Display(setting)!, BackendErrors.Describe(exception));
        }
    }

    /// <summary>
    /// A report that could not be stored is never a silent success: exit <see cref="ExitCodes.OutputFailed"/>, unless the
    /// load had already failed otherwise; <paramref name="outranks"/> lets the JSON report's loss replace an earlier message.
    /// </summary>
    private static LoadReport OutputFailed(LoadReport report, string message, bool outranks) =>
        report.ExitCode == ExitCodes.Success || (outranks && report.ExitCode == ExitCodes.OutputFailed)
            ? report with { Outcome = ReportOutcome.OutputFailed, ExitCode = ExitCodes.OutputFailed, Message = message }
            : report;

    [LoggerMessage(Level = LogLevel.Warning, Message = "Stop requested: reading stopped; batches in flight get {GraceSeconds} s to finish")]
    private partial void LogStopping(double graceSeconds);

    [LoggerMessage(Level = LogLevel.Error, Message = "{Message}")]
    private partial void LogRefused(string message);

    [LoggerMessage(Level = LogLevel.Critical, Message = "The load failed unexpectedly")]
    private partial void LogUnexpected(Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "The report could not be written to {ReportPath}, even after retries: {Reason}; it follows on standard output")]
    private partial void LogReportNotWritten(string reportPath, string reason);

    [LoggerMessage(Level = LogLevel.Error, Message = "The HTML report could not be written to {HtmlReportPath}, even after retries: {Reason}")]
    private partial void LogHtmlReportNotWritten(string htmlReportPath, string reason);

    [LoggerMessage(Level = LogLevel.Information, Message = "Load {Outcome}: {RowsRead} read, {RowsWritten} written, {RowsRejected} rejected, {RowsSuperseded} superseded, {RowsFailed} failed in {ElapsedSeconds} s; exit code {ExitCode}")]
    private partial void LogFinished(ReportOutcome outcome, long rowsRead, long rowsWritten, long rowsRejected, long rowsSuperseded, long rowsFailed, double elapsedSeconds, int exitCode);
}
