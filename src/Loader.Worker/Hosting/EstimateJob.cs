using Loader.Worker.Estimate;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Hosting;

/// <summary>Runs <c>--estimate</c> once, prints the plan as text and as JSON, and stops the host with its exit code.</summary>
internal sealed partial class EstimateJob(
    LoadEstimator estimator,
    IHostApplicationLifetime lifetime,
    SummaryOutput output,
    TimeProvider timeProvider,
    ILogger<EstimateJob> logger) : BackgroundService
{
    public LoadEstimate? Estimate { get; private set; }

    public int? ExitCode { get; private set; }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            var estimate = await estimator.EstimateAsync(stoppingToken).ConfigureAwait(false);
            Estimate = estimate;
            ExitCode = estimate.ExitCode;
            await output.WriteAsync(EstimateText.Format(estimate), timeProvider).ConfigureAwait(false);
            await output.WriteJsonAsync(estimate, ReportWriter.JsonOptions).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is not OperationCanceledException)
        {
            LogUnexpected(exception);
            ExitCode = ExitCodes.InternalError;
        }
        catch (OperationCanceledException)
        {
            ExitCode = ExitCodes.Stopped;
        }

        Environment.ExitCode = ExitCode!.Value;
        lifetime.StopApplication();
    }

    [LoggerMessage(Level = LogLevel.Critical, Message = "The estimate failed unexpectedly")]
    private partial void LogUnexpected(Exception exception);
}
