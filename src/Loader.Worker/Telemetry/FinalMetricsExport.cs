using Loader.Worker.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;

namespace Loader.Worker.Telemetry;

/// <summary>
/// Says where metrics go as the job starts, and sends the last of them as it ends: the process exits right after, so
/// the meter provider is shut down here, once, with a time limit (its final export), rather than left to a periodic
/// export that would never come. Registered before the load job, so it is stopped after it.
/// </summary>
internal sealed partial class FinalMetricsExport(
    MetricsDestinations destinations, IOptions<LoaderOptions> options, ILogger<FinalMetricsExport> logger, MeterProvider? meterProvider = null)
    : IHostedService
{
    private static readonly TimeSpan s_finalExportTimeout = TimeSpan.FromSeconds(10);

    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (destinations.IgnoredConnectionStringVariable)
        {
            LogNotConnectionString(ApplicationInsightsConnectionString.Variable);
        }

        if (destinations.OtlpEndpoint is { } endpoint)
        {
            // Without credentials or query: OTEL_EXPORTER_OTLP_HEADERS, which may carry an API key, is never logged either.
            var collector = new UriBuilder(endpoint) { UserName = "", Password = "", Query = "" }.Uri;
            LogExportingOtlp(collector, destinations.OtlpProtocol);
        }

        if (destinations.AzureMonitorConnectionString is { } connectionString)
        {
            // The ingestion endpoint only: the connection string's instrumentation key is never logged.
            var ingestion = ApplicationInsightsConnectionString.IngestionEndpoint(connectionString)!;
            LogExportingAzureMonitor(ingestion, options.Value.Telemetry.AzureMonitorAuthentication);
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        if (meterProvider is not null && destinations.Any && !meterProvider.Shutdown((int)s_finalExportTimeout.TotalMilliseconds))
        {
            LogFinalExportFailed();
        }

        return Task.CompletedTask;
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Exporting metrics to {Collector} over OTLP ({Protocol})")]
    private partial void LogExportingOtlp(Uri collector, OtlpExportProtocol protocol);

    [LoggerMessage(Level = LogLevel.Information, Message = "Exporting metrics to Azure Monitor at {IngestionEndpoint} ({Authentication})")]
    private partial void LogExportingAzureMonitor(Uri ingestionEndpoint, AzureMonitorAuthentication authentication);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Variable} is not an Application Insights connection string; no metrics go to Azure Monitor")]
    private partial void LogNotConnectionString(string variable);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The last metrics export did not finish in time; the report holds the final numbers")]
    private partial void LogFinalExportFailed();
}
