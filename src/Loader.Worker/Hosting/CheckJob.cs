using Loader.Worker.Checks;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Hosting;

/// <summary>Runs <c>--check</c> once (<see cref="ReadinessCheck"/>), prints one line per check, and stops the host with its exit code.</summary>
internal sealed partial class CheckJob(
    ReadinessCheck check,
    IHostApplicationLifetime lifetime,
    SummaryOutput output,
    TimeProvider timeProvider,
    ILogger<CheckJob> logger) : BackgroundService
{
    public int? ExitCode { get; private set; }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            var readiness = await check.CheckAsync(stoppingToken).ConfigureAwait(false);
            await output.WriteAsync(readiness.Format(), timeProvider).ConfigureAwait(false);
            ExitCode = readiness.ExitCode;
        }
        catch (Exception exception)
        {
            // Never the host's "BackgroundService failed" and exit 0: a check that could not run has not passed.
            LogUnexpected(exception);
            ExitCode = ExitCodes.InternalError;
        }

        Environment.ExitCode = ExitCode.Value;
        lifetime.StopApplication();
    }

    [LoggerMessage(Level = LogLevel.Critical, Message = "The load failed unexpectedly")]
    private partial void LogUnexpected(Exception exception);
}
