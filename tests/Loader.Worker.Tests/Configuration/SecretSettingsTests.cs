using Loader.Worker.Configuration;
using Loader.Worker.Security;
using Microsoft.Extensions.Configuration;

namespace Loader.Worker.Tests.Configuration;

public sealed class SecretSettingsTests
{
    private static IConfiguration Configuration(params (string Key, string Value)[] values) =>
        new ConfigurationBuilder().AddInMemoryCollection(values.Select(value => KeyValuePair.Create(value.Key, (string?)value.Value))).Build();

    [Fact]
    public void The_secret_settings_variables_and_the_secret_parts_of_any_setting_are_known()
    {
        var configuration = Configuration(
            ("Loader:Tables:ConnectionString", "AccountName=a;AccountKey=dGFibGVzLWtleQ=="),
            ("Loader:Cosmos:ConnectionString", "AccountEndpoint=https://c/;AccountKey=Y29zbW9zLWtleQ=="),
            ("Loader:Input", "https://a.blob.core.windows.net/c/b.csv?sv=2024&sig=aW5wdXQ%3D"),
            ("Loader:Telemetry:OtlpEndpoint", "https://user:otlp-password@collector/"),
            ("APPLICATIONINSIGHTS_CONNECTION_STRING", "InstrumentationKey=5eed0001;IngestionEndpoint=https://i/"),
            ("OTEL_EXPORTER_OTLP_HEADERS", "api-key=header-secret,tenant=contoso"),
            ("Loader:PartitionKey", "{dest}"));

        var values = SecretSettings.Values(configuration).ToHashSet(StringComparer.Ordinal);

        Assert.Contains("AccountName=a;AccountKey=dGFibGVzLWtleQ==", values); // a secret setting, whole
        Assert.Contains("dGFibGVzLWtleQ==", values);
        Assert.Contains("Y29zbW9zLWtleQ==", values);
        Assert.Contains("aW5wdXQ=", values); // the input's signature, decoded
        Assert.Contains("otlp-password", values);
        Assert.Contains("5eed0001", values);
        Assert.Contains("header-secret", values);
        Assert.DoesNotContain("{dest}", values);
    }

    [Fact]
    public void A_host_redacts_its_own_secrets_alone()
    {
        var redaction = SecretSettings.RedactionOf(Configuration(("Loader:Blob:ConnectionString", "BlobEndpoint=http://b/;SharedAccessSignature=sv=1&sig=YmxvYi1zaWc%3D")));

        Assert.Equal("the SDK said: (removed) was refused", redaction.Redact("the SDK said: YmxvYi1zaWc= was refused"));
        Assert.Same(Redaction.Rule, SecretSettings.RedactionOf(null));
    }
}
