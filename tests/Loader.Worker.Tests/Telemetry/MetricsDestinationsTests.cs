using Azure.Identity;
using Azure.Monitor.OpenTelemetry.Exporter;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Telemetry;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OpenTelemetry.Exporter;

namespace Loader.Worker.Tests.Telemetry;

/// <summary>Which exporters a load gets from its settings and the standard environment variables, and how they are set up.</summary>
public sealed class MetricsDestinationsTests : IDisposable
{
    private const string ConnectionString = "InstrumentationKey=5f0e61d3-9a4b-4c1e-8f27-2b6d0c9e7a11;IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/";

    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static MetricsDestinations Read(params (string Key, string Value)[] settings) =>
        MetricsDestinations.Read(new ConfigurationBuilder().AddInMemoryCollection(settings.Select(s => new KeyValuePair<string, string?>(s.Key, s.Value))).Build());

    [Fact]
    public void Nothing_is_exported_without_a_collector_or_a_connection_string_nor_on_a_dry_run()
    {
        Assert.False(Read().Any);
        Assert.False(Read(("Loader:DryRun", "true"), ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317"), ("APPLICATIONINSIGHTS_CONNECTION_STRING", ConnectionString)).Any);
    }

    [Fact]
    public void The_settings_win_over_the_standard_environment_variables()
    {
        var destinations = Read(
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://from-environment:4317"), ("Loader:Telemetry:OtlpEndpoint", "http://from-settings:4318"),
            ("Loader:Telemetry:OtlpProtocol", "http/protobuf"),
            ("APPLICATIONINSIGHTS_CONNECTION_STRING", "InstrumentationKey=environment"), ("Loader:Telemetry:AzureMonitorConnectionString", ConnectionString));

        Assert.Equal(new Uri("http://from-settings:4318"), destinations.OtlpEndpoint);
        Assert.Equal(OtlpExportProtocol.HttpProtobuf, destinations.OtlpProtocol);
        Assert.Equal(new Uri("http://from-settings:4318/v1/metrics"), destinations.OtlpExportEndpoint()); // HTTP: the signal's path is added
        Assert.Equal(ConnectionString, destinations.AzureMonitorConnectionString);
    }

    [Fact]
    public void An_environment_variable_that_is_no_connection_string_is_ignored_and_said_so_while_the_setting_is_refused_at_start()
    {
        var ignored = Read(("APPLICATIONINSIGHTS_CONNECTION_STRING", "not a connection string"));
        Assert.Null(ignored.AzureMonitorConnectionString);
        Assert.True(ignored.IgnoredConnectionStringVariable);

        var refused = Read(("Loader:Telemetry:AzureMonitorConnectionString", "IngestionEndpoint=https://no-key.example/"));
        Assert.Null(refused.AzureMonitorConnectionString);
        Assert.False(refused.IgnoredConnectionStringVariable); // LoaderOptionsValidator names the setting instead
    }

    [Theory]
    [InlineData(ConnectionString, "https://westeurope-5.in.applicationinsights.azure.com/")]
    [InlineData("InstrumentationKey=5f0e61d3-9a4b-4c1e-8f27-2b6d0c9e7a11", "https://dc.services.visualstudio.com/")]
    [InlineData("IngestionEndpoint=https://no-key.example/", null)]
    [InlineData("InstrumentationKey=k;IngestionEndpoint=not a url", null)]
    [InlineData("just text", null)]
    public void A_connection_string_names_its_ingestion_endpoint_or_is_refused(string text, string? expected) =>
        Assert.Equal(expected is null ? null : new Uri(expected), ApplicationInsightsConnectionString.IngestionEndpoint(text));

    [Theory]
    [InlineData("EntraId", true)]
    [InlineData("ConnectionString", false)]
    public void With_Entra_ID_the_Azure_Monitor_exporter_signs_in_with_DefaultAzureCredential(string authentication, bool credential)
    {
        using var host = LoaderHost.CreateBuilder(
        [
            $"--Loader:Input={_directory.WriteCsv("in.csv", "pk,rk\np,1\n")}", "--Loader:PartitionKey={pk}", "--Loader:RowKey={rk}",
            "--Loader:Tables:Table=flights", "--Loader:Tables:ConnectionString=UseDevelopmentStorage=true",
            $"--Loader:Telemetry:AzureMonitorConnectionString={ConnectionString}", $"--Loader:Telemetry:AzureMonitorAuthentication={authentication}",
        ]).Build();

        var exporter = host.Services.GetRequiredService<IOptionsMonitor<AzureMonitorExporterOptions>>().Get(Options.DefaultName);

        Assert.Equal(ConnectionString, exporter.ConnectionString);
        Assert.Equal(credential, exporter.Credential is DefaultAzureCredential);
        Assert.True(exporter.DisableOfflineStorage);
    }
}
