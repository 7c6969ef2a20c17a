using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;

namespace Loader.Worker.Configuration;

/// <summary>Where the loader's metrics go besides the report (<c>Loader:Telemetry</c>).</summary>
internal sealed class TelemetryOptions
{
    /// <summary>
    /// An OTLP collector to export metrics to, e.g. <c>http://otel-collector:4318</c>. When empty, the standard
    /// <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> environment variable is used; with neither, nothing is exported.
    /// </summary>
    [Accepts("an http(s) URL of an OTLP collector; optional")]
    public string? OtlpEndpoint { get; set; }

    /// <summary><c>Grpc</c> (default, port 4317) or <c>HttpProtobuf</c> (port 4318); <c>OTEL_EXPORTER_OTLP_PROTOCOL</c> when unset.</summary>
    [Accepts("Grpc or HttpProtobuf; optional")]
    public string? OtlpProtocol { get; set; }

    /// <summary>
    /// An Application Insights connection string to send metrics to Azure Monitor. When empty, the standard
    /// <c>APPLICATIONINSIGHTS_CONNECTION_STRING</c> environment variable is used; with neither, nothing is sent there.
    /// </summary>
    [Accepts("an Application Insights connection string (InstrumentationKey=...;IngestionEndpoint=...); optional")]
    public string? AzureMonitorConnectionString { get; set; }

    /// <summary>
    /// <c>ConnectionString</c> (default): the instrumentation key in it is enough. <c>EntraId</c>: sign in with
    /// <c>DefaultAzureCredential</c> (a managed identity with Monitoring Metrics Publisher), for a resource whose
    /// local authentication is disabled.
    /// </summary>
    public AzureMonitorAuthentication AzureMonitorAuthentication { get; set; } = AzureMonitorAuthentication.ConnectionString;

    /// <summary>How often OTLP metrics are exported while the load runs; the last values go as the job ends. (The Azure Monitor exporter sends every minute, and the last values as the job ends.)</summary>
    // OpenTelemetry's PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds is an int of 1 or more; the
    // loader's own minimum of a second keeps a collector from being flooded.
    [Range(typeof(TimeSpan), "00:00:01", "24.20:31:23.647")]
    public TimeSpan ExportInterval { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>
    /// What <see cref="OtlpEndpoint"/> (and <c>OTEL_EXPORTER_OTLP_ENDPOINT</c>) must be: an http(s) URL; null for anything
    /// else. One rule for the validator, which refuses the setting, and the exporter, which ignores the variable.
    /// </summary>
    internal static Uri? OtlpUrl(string? text) =>
        Uri.TryCreate(text, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps) ? uri : null;
}
