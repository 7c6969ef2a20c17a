namespace Loader.Worker.Configuration;

/// <summary>
/// The configuration outside <c>Loader:</c> that the host or a library reads, and so the only top-level keys the
/// command line and a settings file may hold besides <c>Loader:</c>; any other stops the load at start
/// (<see cref="UnknownSettingsValidator"/>). The environment holds every variable of the process, so only its
/// <c>Loader__</c> variables are checked.
/// </summary>
internal static class HostSections
{
    /// <summary>Each accepted key or key pattern with what reads it.</summary>
    public static IReadOnlyList<(string Pattern, string Meaning)> Accepted { get; } =
    [
        ("Logging:*", "Microsoft.Extensions.Logging's levels and filters, e.g. --Logging:LogLevel:Default=Warning."),
        ("OTEL_*", "OpenTelemetry's own settings, e.g. OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_HEADERS."),
        (ApplicationInsightsConnectionString.Variable, "the Application Insights connection string when Loader:Telemetry:AzureMonitorConnectionString is empty."),
    ];

    /// <summary>Whether a key outside <c>Loader:</c> is one of <see cref="Accepted"/>.</summary>
    public static bool Accepts(string key)
    {
        var first = key.Split(':')[0];
        return first.Equals("Logging", StringComparison.OrdinalIgnoreCase)
            || (first.StartsWith("OTEL_", StringComparison.OrdinalIgnoreCase) && first.Length == key.Length)
            || key.Equals(ApplicationInsightsConnectionString.Variable, StringComparison.OrdinalIgnoreCase);
    }
}
