using System.Data.Common;

namespace Loader.Worker.Configuration;

/// <summary>An Application Insights connection string (<c>InstrumentationKey=...;IngestionEndpoint=...</c>), read only to check it and to name where it sends.</summary>
internal static class ApplicationInsightsConnectionString
{
    public const string Variable = "APPLICATIONINSIGHTS_CONNECTION_STRING";

    /// <summary>Where Application Insights takes telemetry when the connection string names no ingestion endpoint.</summary>
    private static readonly Uri s_defaultIngestion = new("https://dc.services.visualstudio.com/");

    /// <summary>The ingestion endpoint the exporter posts to; null when the text is not an Application Insights connection string.</summary>
    public static Uri? IngestionEndpoint(string text)
    {
        var parts = new DbConnectionStringBuilder();
        try
        {
            parts.ConnectionString = text;
        }
        catch (ArgumentException)
        {
            return null; // not key=value pairs; the callers name the setting without repeating its value
        }

        if (!parts.TryGetValue("InstrumentationKey", out var key) || string.IsNullOrWhiteSpace(key as string))
        {
            return null;
        }

        if (!parts.TryGetValue("IngestionEndpoint", out var endpoint))
        {
            return s_defaultIngestion;
        }

        return Uri.TryCreate(endpoint as string, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttps || uri.Scheme == Uri.UriSchemeHttp) ? uri : null;
    }
}
