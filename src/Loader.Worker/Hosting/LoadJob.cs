using Loader.Worker.Configuration;
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
/// and the process exits with the load's exit code.
/// </summary>
public sealed partial class LoadJob(
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
        using var abort = new CancellationTokenSource(Timeout.InfiniteTimeSpan, timeProvider);
        var onStop = stoppingToken.Register(() =>
        {
            LogStopping(settings.ShutdownGracePeriod.TotalSeconds);
            abort.CancelAfter(settings.ShutdownGracePeriod);
        });

        LoadReport report;
        try
        {
            report = await pipeline.RunAsync(stoppingToken, abort.Token).ConfigureAwait(false);
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
        // stopping token before this method returns, is no stop request (it used to log one now and then).
        await onStop.DisposeAsync().ConfigureAwait(false);

        Report = report;
        await PublishAsync(report, settings).ConfigureAwait(false);
        ExitCode = report.ExitCode;
        Environment.ExitCode = report.ExitCode;
        lifetime.StopApplication();
    }

    private async Task PublishAsync(LoadReport report, LoaderOptions settings)
    {
        if (!string.IsNullOrWhiteSpace(settings.ReportPath))
        {
            try
            {
                await ReportWriter.WriteAsync(report, outputs.For(settings.ReportPath)!, CancellationToken.None).ConfigureAwait(false);
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException or InvalidOperationException
                or Azure.RequestFailedException or Azure.Identity.AuthenticationFailedException)
            {
                LogReportNotWritten(OutputFiles.Display(settings.ReportPath)!, BackendErrors.Describe(exception));
            }
        }

        LogFinished(report.Outcome, report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSuperseded, report.RowsFailed, report.ElapsedSeconds, report.ExitCode);
        await summaryOutput.WriteAsync(SummaryWriter.Format(report), timeProvider).ConfigureAwait(false);
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Stop requested: reading stopped; batches in flight get {GraceSeconds} s to finish")]
    private partial void LogStopping(double graceSeconds);

    [LoggerMessage(Level = LogLevel.Critical, Message = "The load failed unexpectedly")]
    private partial void LogUnexpected(Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "The report could not be written to {ReportPath}: {Reason}")]
    private partial void LogReportNotWritten(string reportPath, string reason);

    [LoggerMessage(Level = LogLevel.Information, Message = "Load {Outcome}: {RowsRead} read, {RowsWritten} written, {RowsRejected} rejected, {RowsSuperseded} superseded, {RowsFailed} failed in {ElapsedSeconds} s; exit code {ExitCode}")]
    private partial void LogFinished(string outcome, long rowsRead, long rowsWritten, long rowsRejected, long rowsSuperseded, long rowsFailed, double elapsedSeconds, int exitCode);
}
