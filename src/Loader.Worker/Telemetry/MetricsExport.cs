using System.Diagnostics.Metrics;
using Azure.Identity;
using Azure.Monitor.OpenTelemetry.Exporter;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;

namespace Loader.Worker.Telemetry;

/// <summary>
/// Exports the loader's meter with OpenTelemetry (OpenTelemetry.Extensions.Hosting): over OTLP to a collector, and with
/// the Azure Monitor exporter to Application Insights, as <see cref="MetricsDestinations"/> says. The host starts the
/// meter provider; <see cref="FinalMetricsExport"/> exports the last values as the job ends.
/// </summary>
internal static class MetricsExport
{
    public const string DefaultServiceName = "bulk-loader";

    public static IServiceCollection AddMetricsExport(this IServiceCollection services, IConfiguration configuration)
    {
        var destinations = MetricsDestinations.Read(configuration);
        services.AddSingleton(destinations);
        services.AddHostedService<FinalMetricsExport>();
        if (!destinations.Any)
        {
            return services;
        }

        services.AddOpenTelemetry()
            .ConfigureResource(resource =>
            {
                if (string.IsNullOrEmpty(configuration[MetricsDestinations.ServiceNameVariable]))
                {
                    resource.AddService(DefaultServiceName); // otherwise OTEL_SERVICE_NAME names it, as the Bicep job does
                }
            })
            .WithMetrics(metrics =>
            {
                metrics.AddMeter(LoaderMetrics.MeterName);
                ((IDeferredMeterProviderBuilder)metrics).Configure((provider, builder) => builder.AddView(OnlyThisHostsMeter(provider.GetRequiredService<LoaderMetrics>())));
                if (destinations.OtlpEndpoint is not null)
                {
                    metrics.AddOtlpExporter();
                }

                if (destinations.AzureMonitorConnectionString is not null)
                {
                    metrics.AddAzureMonitorMetricExporter();
                }
            });

        services.AddOptions<OtlpExporterOptions>().Configure(exporter =>
        {
            exporter.Protocol = destinations.OtlpProtocol;
            exporter.Endpoint = destinations.OtlpExportEndpoint()!;
        });
        services.AddOptions<MetricReaderOptions>().Configure<IOptions<LoaderOptions>>((reader, options) =>
            reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = (int)options.Value.Telemetry.ExportInterval.TotalMilliseconds);
        services.AddOptions<AzureMonitorExporterOptions>().Configure<IOptions<LoaderOptions>>((exporter, options) =>
        {
            exporter.ConnectionString = destinations.AzureMonitorConnectionString;
            if (options.Value.Telemetry.AzureMonitorAuthentication == AzureMonitorAuthentication.EntraId)
            {
                // Application Insights with local authentication disabled: the connection string names the component,
                // the job's managed identity (Monitoring Metrics Publisher) is what is trusted.
                exporter.Credential = new DefaultAzureCredential();
            }

            // A failed export is not kept on disk for a later process to send: the job exits right after its last
            // export, a container's disk goes with it, and the report holds the final numbers.
            exporter.DisableOfflineStorage = true;
        });
        return services;
    }

    /// <summary>
    /// The meter of this host's <see cref="LoaderMetrics"/> only. Meters are found by name process-wide, and a process
    /// can hold several hosts (the tests run loads side by side): without this, one host would export another's rows.
    /// </summary>
    private static Func<Instrument, MetricStreamConfiguration?> OnlyThisHostsMeter(LoaderMetrics metrics) =>
        instrument => ReferenceEquals(instrument.Meter, metrics.Meter) ? null : MetricStreamConfiguration.Drop;
}
