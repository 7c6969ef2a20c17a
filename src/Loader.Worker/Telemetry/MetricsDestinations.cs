using Loader.Worker.Configuration;
using Microsoft.Extensions.Configuration;
using OpenTelemetry.Exporter;

namespace Loader.Worker.Telemetry;

/// <summary>
/// Where the loader's meter goes besides the report: an OTLP collector, Azure Monitor, both or neither (and neither on
/// a dry run). Read from the settings before the host is built, because the exporters are registered with the host;
/// each value is the setting, else the standard environment variable.
/// </summary>
/// <param name="OtlpEndpoint">The collector, or null.</param>
/// <param name="OtlpProtocol">gRPC (default) or HTTP/protobuf.</param>
/// <param name="AzureMonitorConnectionString">The Application Insights connection string, or null.</param>
/// <param name="IgnoredConnectionStringVariable">An <c>APPLICATIONINSIGHTS_CONNECTION_STRING</c> that is no connection string (metrics are not worth failing the load; it is logged).</param>
internal sealed record MetricsDestinations(Uri? OtlpEndpoint, OtlpExportProtocol OtlpProtocol, string? AzureMonitorConnectionString, bool IgnoredConnectionStringVariable)
{
    public const string OtlpEndpointVariable = "OTEL_EXPORTER_OTLP_ENDPOINT";
    public const string OtlpProtocolVariable = "OTEL_EXPORTER_OTLP_PROTOCOL";
    public const string ServiceNameVariable = "OTEL_SERVICE_NAME";

    private const string TelemetrySection = LoaderOptions.SectionName + ":Telemetry:";

    public bool Any => OtlpEndpoint is not null || AzureMonitorConnectionString is not null;

    public static MetricsDestinations Read(IConfiguration configuration)
    {
        if (bool.TryParse(configuration[LoaderOptions.SectionName + ":" + nameof(LoaderOptions.DryRun)], out var dryRun) && dryRun)
        {
            return new MetricsDestinations(null, OtlpExportProtocol.Grpc, null, false);
        }

        var otlp = TelemetryOptions.OtlpUrl(configuration[TelemetrySection + nameof(TelemetryOptions.OtlpEndpoint)] ?? configuration[OtlpEndpointVariable]);
        var protocol = Protocol(configuration[TelemetrySection + nameof(TelemetryOptions.OtlpProtocol)] ?? configuration[OtlpProtocolVariable]);
        var setting = configuration[TelemetrySection + nameof(TelemetryOptions.AzureMonitorConnectionString)];
        var connectionString = string.IsNullOrWhiteSpace(setting) ? configuration[ApplicationInsightsConnectionString.Variable] : setting;
        if (string.IsNullOrWhiteSpace(connectionString))
        {
            return new MetricsDestinations(otlp, protocol, null, false);
        }

        // A setting that is no connection string fails the start (TelemetryOptionsValidator); the variable is only ignored.
        var usable = ApplicationInsightsConnectionString.IngestionEndpoint(connectionString) is not null;
        return new MetricsDestinations(otlp, protocol, usable ? connectionString : null, !usable && string.IsNullOrWhiteSpace(setting));
    }

    internal static OtlpExportProtocol Protocol(string? text) =>
        text?.Replace("/", "", StringComparison.Ordinal).Equals("httpprotobuf", StringComparison.OrdinalIgnoreCase) == true
            ? OtlpExportProtocol.HttpProtobuf
            : OtlpExportProtocol.Grpc;

    /// <summary>The endpoint the OTLP exporter posts to: over HTTP an endpoint set in code is used as it is, so the signal's path must be on it.</summary>
    internal Uri? OtlpExportEndpoint() =>
        OtlpEndpoint is not { } endpoint || OtlpProtocol != OtlpExportProtocol.HttpProtobuf || endpoint.AbsolutePath.EndsWith("/v1/metrics", StringComparison.Ordinal)
            ? OtlpEndpoint
            : new Uri(endpoint, endpoint.AbsolutePath.TrimEnd('/') + "/v1/metrics");
}
