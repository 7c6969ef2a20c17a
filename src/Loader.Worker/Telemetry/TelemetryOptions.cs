namespace Loader.Worker.Telemetry;

/// <summary>Where the loader's metrics go besides the report (<c>Loader:Telemetry</c>).</summary>
public sealed class TelemetryOptions
{
    /// <summary>
    /// An OTLP collector to export metrics to, e.g. <c>http://otel-collector:4318</c>. When empty, the standard
    /// <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> environment variable is used; with neither, nothing is exported.
    /// </summary>
    public string? OtlpEndpoint { get; set; }

    /// <summary><c>Grpc</c> (default, port 4317) or <c>HttpProtobuf</c> (port 4318); <c>OTEL_EXPORTER_OTLP_PROTOCOL</c> when unset.</summary>
    public string? OtlpProtocol { get; set; }

    /// <summary>How often metrics are exported while the load runs; they are exported once more as it ends.</summary>
    public TimeSpan ExportInterval { get; set; } = TimeSpan.FromSeconds(15);
}
