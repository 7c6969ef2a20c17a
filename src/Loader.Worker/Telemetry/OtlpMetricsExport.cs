using Loader.Worker.Configuration;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OpenTelemetry;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;

namespace Loader.Worker.Telemetry;

/// <summary>
/// Exports the loader's meter (rows, batches, request units, batch latency, throttles, retries) over OTLP while the
/// load runs, and once more as it ends, when a collector is configured. Built by hand because the mirror lacks
/// OpenTelemetry.Extensions.Hosting; registered before the load job, so it starts first and stops last.
/// </summary>
internal sealed partial class OtlpMetricsExport(IOptions<LoaderOptions> options, IConfiguration configuration, ILogger<OtlpMetricsExport> logger)
    : IHostedService, IDisposable
{
    public const string EndpointVariable = "OTEL_EXPORTER_OTLP_ENDPOINT";
    public const string ProtocolVariable = "OTEL_EXPORTER_OTLP_PROTOCOL";
    public const string ServiceNameVariable = "OTEL_SERVICE_NAME";

    private static readonly TimeSpan s_finalExportTimeout = TimeSpan.FromSeconds(5);

    private MeterProvider? _provider;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        var telemetry = options.Value.Telemetry;
        var endpoint = Endpoint(telemetry.OtlpEndpoint ?? configuration[EndpointVariable]);
        if (endpoint is null || options.Value.DryRun)
        {
            return Task.CompletedTask;
        }

        var protocol = Protocol(telemetry.OtlpProtocol ?? configuration[ProtocolVariable]);
        _provider = Sdk.CreateMeterProviderBuilder()
            .ConfigureResource(resource =>
            {
                if (string.IsNullOrEmpty(configuration[ServiceNameVariable]))
                {
                    resource.AddService("bulk-loader"); // otherwise OTEL_SERVICE_NAME names it, as the Bicep job does
                }
            })
            .AddMeter(LoaderMetrics.MeterName)
            .AddOtlpExporter((exporter, reader) =>
            {
                exporter.Protocol = protocol;
                exporter.Endpoint = protocol == OtlpExportProtocol.HttpProtobuf ? MetricsPath(endpoint) : endpoint;
                reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = (int)telemetry.ExportInterval.TotalMilliseconds;
            })
            .Build();
        var shown = new UriBuilder(endpoint) { UserName = "", Password = "", Query = "" }.Uri;
        LogExporting(shown, protocol);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        if (_provider is not null && !_provider.ForceFlush((int)s_finalExportTimeout.TotalMilliseconds))
        {
            LogFinalExportFailed();
        }

        return Task.CompletedTask;
    }

    public void Dispose() => _provider?.Dispose();

    internal static Uri? Endpoint(string? text) =>
        Uri.TryCreate(text, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps) ? uri : null;

    internal static OtlpExportProtocol Protocol(string? text) =>
        text?.Replace("/", "", StringComparison.Ordinal).Equals("httpprotobuf", StringComparison.OrdinalIgnoreCase) == true
            ? OtlpExportProtocol.HttpProtobuf
            : OtlpExportProtocol.Grpc;

    // Over HTTP, an endpoint set in code is used as it is: the signal's path must be on it.
    private static Uri MetricsPath(Uri endpoint) =>
        endpoint.AbsolutePath.EndsWith("/v1/metrics", StringComparison.Ordinal) ? endpoint : new Uri(endpoint, endpoint.AbsolutePath.TrimEnd('/') + "/v1/metrics");

    // The collector's address only: OTEL_EXPORTER_OTLP_HEADERS, which may carry an API key, is never logged.
    [LoggerMessage(Level = LogLevel.Information, Message = "Exporting metrics to {Collector} over OTLP ({Protocol})")]
    private partial void LogExporting(Uri collector, OtlpExportProtocol protocol);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The last metrics export did not finish in time; the report holds the final numbers")]
    private partial void LogFinalExportFailed();
}
