using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>Checks <c>Loader:Telemetry</c>: destinations that parse, a known protocol, an export interval of a second or more.</summary>
public sealed class TelemetryOptionsValidator : IValidateOptions<TelemetryOptions>
{
    public ValidateOptionsResult Validate(string? name, TelemetryOptions options)
    {
        var failures = new SettingFailures();
        failures.Defined("Loader:Telemetry:AzureMonitorAuthentication", options.AzureMonitorAuthentication);
        if (!string.IsNullOrWhiteSpace(options.AzureMonitorConnectionString) && ApplicationInsightsConnectionString.IngestionEndpoint(options.AzureMonitorConnectionString) is null)
        {
            // The value itself is not repeated: it holds an instrumentation key.
            failures.Add("Loader:Telemetry:AzureMonitorConnectionString is not an Application Insights connection string (InstrumentationKey=...;IngestionEndpoint=...).");
        }

        if (!string.IsNullOrWhiteSpace(options.OtlpEndpoint) && TelemetryOptions.OtlpUrl(options.OtlpEndpoint) is null)
        {
            failures.Add($"Loader:Telemetry:OtlpEndpoint '{options.OtlpEndpoint}' is not an http(s) URL of an OTLP collector, e.g. http://otel-collector:4317.");
        }

        if (options.OtlpProtocol is { Length: > 0 } protocol && !string.Equals(protocol, "Grpc", StringComparison.OrdinalIgnoreCase)
            && !string.Equals(protocol, "HttpProtobuf", StringComparison.OrdinalIgnoreCase) && !string.Equals(protocol, "http/protobuf", StringComparison.OrdinalIgnoreCase))
        {
            failures.Add($"Loader:Telemetry:OtlpProtocol '{protocol}' is not Grpc or HttpProtobuf.");
        }

        if (options.ExportInterval < TimeSpan.FromSeconds(1))
        {
            failures.Add($"Loader:Telemetry:ExportInterval must be at least 1 second, was {options.ExportInterval}.");
        }

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
