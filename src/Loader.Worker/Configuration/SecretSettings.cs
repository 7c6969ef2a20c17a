using Loader.Worker.Security;
using Microsoft.Extensions.Configuration;

namespace Loader.Worker.Configuration;

/// <summary>
/// The secrets a load was given, wherever they came from (settings file, environment, command line): what the host's
/// <see cref="Redaction"/> searches for as exact values, besides the shapes its rule knows.
/// </summary>
internal static class SecretSettings
{
    /// <summary>Environment variables the loader or its SDKs read secrets from; their values are never written either.</summary>
    public static readonly IReadOnlyList<string> Variables =
    [
        ApplicationInsightsConnectionString.Variable,
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_HEADERS",
        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
        "OTEL_EXPORTER_OTLP_METRICS_HEADERS",
        "AZURE_CLIENT_SECRET",
        "AZURE_CLIENT_CERTIFICATE_PASSWORD",
    ];

    /// <summary>The redaction of a host with this configuration: the rule, and every secret value in it.</summary>
    public static Redaction RedactionOf(IConfiguration? configuration) =>
        configuration is null ? Redaction.Rule : new Redaction(Values(configuration));

    /// <summary>
    /// The value of every setting the catalogue marks secret (connection strings, keys), of the variables above, and the
    /// secret parts of any <c>Loader</c> setting (a URL's signature or password, a key in a connection string).
    /// </summary>
    public static IEnumerable<string> Values(IConfiguration configuration)
    {
        var secretKeys = SettingsCatalog.Keys().Where(setting => setting.IsSecret).Select(setting => setting.Key);
        foreach (var key in secretKeys.Concat(Variables))
        {
            if (configuration[key] is { } value && !string.IsNullOrWhiteSpace(value))
            {
                yield return value;
                foreach (var header in key.EndsWith("_HEADERS", StringComparison.Ordinal) ? HeaderValues(value) : [])
                {
                    yield return header;
                }
            }
        }

        var settings = configuration.GetSection(LoaderOptions.SectionName).AsEnumerable().Select(setting => setting.Value);
        foreach (var value in settings.Concat(Variables.Select(key => configuration[key])))
        {
            foreach (var secret in Redaction.SecretsIn(value))
            {
                yield return secret;
            }
        }
    }

    /// <summary>The values of OTLP headers, <c>name=value</c> pairs separated by commas (<c>api-key=...,tenant=...</c>).</summary>
    private static IEnumerable<string> HeaderValues(string text) =>
        text.Split(',').Select(pair => pair.Split('=', 2)).Where(pair => pair.Length == 2).Select(pair => pair[1].Trim());
}
