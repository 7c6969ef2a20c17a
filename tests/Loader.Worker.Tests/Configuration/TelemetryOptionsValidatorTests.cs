using Loader.Worker.Configuration;

namespace Loader.Worker.Tests.Configuration;

public sealed class TelemetryOptionsValidatorTests
{
    [Fact]
    public void Default_telemetry_settings_pass()
    {
        Assert.True(new TelemetryOptionsValidator("Loader:Telemetry").Validate(null, new TelemetryOptions()).Succeeded);
    }

    [Fact]
    public void A_bad_collector_and_a_short_interval_are_named_but_a_connection_string_is_not_repeated()
    {
        var result = new TelemetryOptionsValidator("Loader:Telemetry").Validate(null, new TelemetryOptions { OtlpEndpoint = "collector:4317", ExportInterval = TimeSpan.FromMilliseconds(10), AzureMonitorConnectionString = "secret-key" });

        Assert.Equal(
            [
                "Loader:Telemetry:AzureMonitorConnectionString is not an Application Insights connection string (InstrumentationKey=...;IngestionEndpoint=...).",
                "Loader:Telemetry:OtlpEndpoint 'collector:4317' is not an http(s) URL of an OTLP collector, e.g. http://otel-collector:4317.",
                "Loader:Telemetry:ExportInterval must be between 00:00:01 and 24.20:31:23.647, was 00:00:00.01.",
            ],
            result.Failures!);
    }
}
