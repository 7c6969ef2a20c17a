using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>Checks <c>Loader:Telemetry</c>: destinations that parse, a known protocol, an export interval within its range.</summary>
/// <param name="section">The section's key, e.g. <c>Loader:Telemetry</c>: each message names its setting in full under it.</param>
internal sealed class TelemetryOptionsValidator(string section) : IValidateOptions<TelemetryOptions>
{
    public ValidateOptionsResult Validate(string? name, TelemetryOptions options)
    {
        var failures = new SettingFailures();
        if (!string.IsNullOrWhiteSpace(options.AzureMonitorConnectionString) && ApplicationInsightsConnectionString.IngestionEndpoint(options.AzureMonitorConnectionString) is null)
        {
            // The value itself is not repeated: it holds an instrumentation key.
            failures.Add($"{section}:AzureMonitorConnectionString is not an Application Insights connection string (InstrumentationKey=...;IngestionEndpoint=...).");
        }

        if (!string.IsNullOrWhiteSpace(options.OtlpEndpoint) && TelemetryOptions.OtlpUrl(options.OtlpEndpoint) is null)
        {
            failures.Add($"{section}:OtlpEndpoint '{options.OtlpEndpoint}' is not an http(s) URL of an OTLP collector, e.g. http://otel-collector:4317.");
        }

        if (options.OtlpProtocol is { Length: > 0 } protocol && !string.Equals(protocol, "Grpc", StringComparison.OrdinalIgnoreCase)
            && !string.Equals(protocol, "HttpProtobuf", StringComparison.OrdinalIgnoreCase) && !string.Equals(protocol, "http/protobuf", StringComparison.OrdinalIgnoreCase))
        {
            failures.Add($"{section}:OtlpProtocol '{protocol}' is not Grpc or HttpProtobuf.");
        }

        failures.Bounds(section, options);
        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
