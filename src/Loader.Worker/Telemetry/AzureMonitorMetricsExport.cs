using System.Diagnostics.Metrics;
using Azure.Identity;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Telemetry;

/// <summary>
/// Sends the loader's meter to Azure Monitor (Application Insights) when a connection string is given. The mirror
/// lacks Azure.Monitor.OpenTelemetry.Exporter, so the instruments are bridged to the Application Insights SDK's own
/// pre-aggregating metrics (<see cref="TelemetryClient.GetMetric(string, string)"/>): counters arrive as per-minute
/// sums, the batch latency as per-minute count/min/max/average, and a last flush sends the final minute.
/// </summary>
internal sealed partial class AzureMonitorMetricsExport(
    IOptions<LoaderOptions> options, LoaderMetrics metrics, IConfiguration configuration, ILogger<AzureMonitorMetricsExport> logger)
    : IHostedService, IDisposable
{
    public const string ConnectionStringVariable = "APPLICATIONINSIGHTS_CONNECTION_STRING";

    private static readonly TimeSpan s_finalExportTimeout = TimeSpan.FromSeconds(10);

    private TelemetryConfiguration? _configuration;
    private MeterListener? _listener;
    private TelemetryClient? _client;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        var telemetry = options.Value.Telemetry;
        var connectionString = telemetry.AzureMonitorConnectionString ?? configuration[ConnectionStringVariable];
        if (string.IsNullOrWhiteSpace(connectionString) || options.Value.DryRun)
        {
            return Task.CompletedTask;
        }

        _configuration = Configure(connectionString);
        if (_configuration is null)
        {
            // Only the environment variable gets here (the setting is validated at start); metrics are not worth failing the load.
            LogNotConnectionString(ConnectionStringVariable);
            return Task.CompletedTask;
        }

        if (telemetry.AzureMonitorAuthentication == AzureMonitorAuthentication.EntraId)
        {
            // Application Insights with local authentication disabled: the connection string names the resource,
            // the job's managed identity (Monitoring Metrics Publisher) is what is trusted.
            _configuration.SetAzureTokenCredential(new DefaultAzureCredential());
        }

        var client = new TelemetryClient(_configuration);
        client.Context.Cloud.RoleName = configuration[OtlpMetricsExport.ServiceNameVariable] is { Length: > 0 } name ? name : "bulk-loader";
        _client = client;
        _listener = Listen(metrics.Meter, client);
        LogExporting(_configuration.EndpointContainer.Ingestion, telemetry.AzureMonitorAuthentication);
        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_client is null)
        {
            return;
        }

        _listener?.Dispose(); // no measurement after the last flush
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(s_finalExportTimeout);
        try
        {
            if (!await _client.FlushAsync(timeout.Token).ConfigureAwait(false))
            {
                LogFinalExportFailed();
            }
        }
        catch (OperationCanceledException)
        {
            LogFinalExportFailed();
        }
    }

    internal static bool IsConnectionString(string text)
    {
        using var probe = Configure(text);
        return probe is not null;
    }

    /// <summary>A configuration for an Application Insights connection string; null when the text is not one.</summary>
    private static TelemetryConfiguration? Configure(string connectionString)
    {
        var configuration = new TelemetryConfiguration();
        try
        {
            configuration.ConnectionString = connectionString;
        }
        catch (ArgumentException)
        {
            // Not a connection string: the callers name the setting, without repeating its value.
            configuration.Dispose();
            return null;
        }

        if (string.IsNullOrEmpty(configuration.InstrumentationKey))
        {
            configuration.Dispose();
            return null;
        }

        return configuration;
    }

    public void Dispose()
    {
        _listener?.Dispose();
        _configuration?.Dispose();
    }

    /// <summary>Forwards every measurement of the loader's meter to the metric of the same name (its tag as a dimension).</summary>
    private static MeterListener Listen(Meter meter, TelemetryClient client)
    {
        var listener = new MeterListener
        {
            InstrumentPublished = (instrument, subscriber) =>
            {
                if (ReferenceEquals(instrument.Meter, meter))
                {
                    subscriber.EnableMeasurementEvents(instrument, new MetricForwarder(client, instrument.Name));
                }
            },
        };
        listener.SetMeasurementEventCallback<long>((_, value, tags, state) => ((MetricForwarder)state!).Track(value, tags));
        listener.SetMeasurementEventCallback<double>((_, value, tags, state) => ((MetricForwarder)state!).Track(value, tags));
        listener.Start();
        return listener;
    }

    /// <summary>One instrument's way into Application Insights; the loader's instruments carry at most one tag.</summary>
    private sealed class MetricForwarder(TelemetryClient client, string name)
    {
        // One value at a time into the SDK: its mostly lock-free pre-aggregation lost one of seven values that arrived
        // at once from parallel batches (a CI run under load). A few values per batch make the lock cost nothing.
        private readonly Lock _lock = new();
        private readonly Metric _plain = client.GetMetric(name);
        private readonly Dictionary<string, Metric> _byTag = [];

        public void Track(double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            lock (_lock)
            {
                if (tags.Length == 0)
                {
                    _plain.TrackValue(value);
                    return;
                }

                var key = tags[0].Key;
                if (!_byTag.TryGetValue(key, out var metric))
                {
                    metric = client.GetMetric(name, key);
                    _byTag[key] = metric;
                }

                metric.TrackValue(value, tags[0].Value?.ToString() ?? "");
            }
        }
    }

    // The ingestion endpoint only: the connection string's instrumentation key is never logged.
    [LoggerMessage(Level = LogLevel.Information, Message = "Exporting metrics to Azure Monitor at {IngestionEndpoint} ({Authentication})")]
    private partial void LogExporting(Uri ingestionEndpoint, AzureMonitorAuthentication authentication);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Variable} is not an Application Insights connection string; no metrics go to Azure Monitor")]
    private partial void LogNotConnectionString(string variable);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The last metrics export to Azure Monitor did not finish in time; the report holds the final numbers")]
    private partial void LogFinalExportFailed();
}
