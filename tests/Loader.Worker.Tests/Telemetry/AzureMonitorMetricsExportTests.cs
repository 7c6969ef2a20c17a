using System.IO.Compression;
using System.Text;
using System.Text.Json;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Telemetry;

/// <summary>
/// Metrics reach Azure Monitor: here a listener standing in for the Application Insights ingestion endpoint (the
/// connection string's <c>IngestionEndpoint</c>), which keeps the envelopes the OpenTelemetry Azure Monitor exporter
/// posts to its track API (<c>/v2.1/track</c>; <c>/v2/track</c> for older exporters), gzip-compressed or not.
/// </summary>
public sealed class AzureMonitorMetricsExportTests(AzuriteFixture azurite) : IDisposable
{
    private const string InstrumentationKey = "5f0e61d3-9a4b-4c1e-8f27-2b6d0c9e7a11";

    static AzureMonitorMetricsExportTests()
    {
        // The exporter's self-statistics (SDK stats) start by asking the Azure instance metadata address
        // (169.254.169.254) where they run; tests talk to loopback only. Process-wide, but only this test exports there.
        Environment.SetEnvironmentVariable("APPLICATIONINSIGHTS_SDKSTATS_DISABLED", "true");
    }

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task A_load_sends_its_row_counts_and_batch_latency_to_the_ingestion_endpoint_of_the_connection_string()
    {
        // What the ingestion service answers when it takes everything.
        using var ingestion = new TelemetryReceiver("{\"itemsReceived\":0,\"itemsAccepted\":0,\"errors\":[]}");
        // Another loader's meter of the same name in this process (the tests run loads side by side): not this load's rows.
        using var otherHost = new TestMeterFactory();
        using var otherLoadRuns = CancellationTokenSource.CreateLinkedTokenSource(_cancellation);
        var otherLoad = WriteRowsUntilCancelledAsync(new LoaderMetrics(otherHost), otherLoadRuns.Token);

        var run = await TelemetryReceiver.LoadAsync(azurite, _directory, rows: 700, partitions: 7, new Dictionary<string, string?>
        {
            ["Loader:Telemetry:AzureMonitorConnectionString"] = $"InstrumentationKey={InstrumentationKey};IngestionEndpoint={ingestion.Address}",
        }, _cancellation);
        await otherLoadRuns.CancelAsync();
        var otherRows = await otherLoad;
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        var report = run.RequireReport();

        var posts = await ingestion.StopAsync();
        var metrics = posts.Where(post => post.Path.EndsWith("/track", StringComparison.Ordinal)).SelectMany(post => Envelopes(post.Body)).Where(envelope => envelope.BaseType == "MetricData").ToList();

        Assert.NotEmpty(metrics);
        Assert.True(otherRows > 0, "the other loader's meter recorded nothing while the load ran");
        Assert.All(metrics, metric => Assert.Equal(InstrumentationKey, metric.InstrumentationKey));
        // Counters arrive as sums per aggregation period: together they are the report's count.
        var written = metrics.Where(metric => metric.Name == "loader.rows" && metric.Dimension("outcome") == "written").Sum(metric => metric.Value);
        Assert.Equal(report.RowsWritten, (long)written);
        var batches = metrics.Where(metric => metric.Name == "loader.batches").Sum(metric => metric.Value);
        Assert.Equal(report.Batches, (long)batches);
        var latency = metrics.Where(metric => metric.Name == "loader.batch.duration").ToList();
        Assert.Equal(report.Requests, latency.Sum(metric => metric.Count));
        Assert.Contains(run.Logs.Logs, log => log.Message.Contains($"Exporting metrics to Azure Monitor at {ingestion.Address}", StringComparison.Ordinal));
        Assert.DoesNotContain(run.Logs.Logs, log => log.Message.Contains(InstrumentationKey, StringComparison.OrdinalIgnoreCase));
    }

    private static async Task<long> WriteRowsUntilCancelledAsync(LoaderMetrics metrics, CancellationToken cancellationToken)
    {
        long rows = 0;
        while (!cancellationToken.IsCancellationRequested)
        {
            metrics.Rows("written", 1_000);
            metrics.BatchWritten();
            rows += 1_000;
            await Task.Delay(5, CancellationToken.None);
        }

        return rows;
    }

    private sealed record MetricEnvelope(string InstrumentationKey, string BaseType, string Name, double Value, long Count, JsonElement Properties)
    {
        public string? Dimension(string name) => Properties.ValueKind == JsonValueKind.Object && Properties.TryGetProperty(name, out var value) ? value.GetString() : null;
    }

    /// <summary>The SDK posts newline-delimited JSON envelopes, gzip-compressed when it says so.</summary>
    private static IEnumerable<MetricEnvelope> Envelopes(byte[] body)
    {
        var text = body is [0x1f, 0x8b, ..] ? Gunzip(body) : Encoding.UTF8.GetString(body);
        foreach (var line in text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            using var document = JsonDocument.Parse(line);
            var root = document.RootElement;
            var data = root.GetProperty("data");
            var baseType = data.GetProperty("baseType").GetString()!;
            if (baseType != "MetricData")
            {
                yield return new MetricEnvelope(root.GetProperty("iKey").GetString()!, baseType, "", 0, 0, default);
                continue;
            }

            var baseData = data.GetProperty("baseData");
            var properties = baseData.TryGetProperty("properties", out var found) ? found.Clone() : default;
            foreach (var metric in baseData.GetProperty("metrics").EnumerateArray())
            {
                var count = metric.TryGetProperty("count", out var counted) ? counted.GetInt64() : 1;
                yield return new MetricEnvelope(root.GetProperty("iKey").GetString()!, baseType, metric.GetProperty("name").GetString()!, metric.GetProperty("value").GetDouble(), count, properties);
            }
        }
    }

    private static string Gunzip(byte[] body)
    {
        using var gzip = new GZipStream(new MemoryStream(body), CompressionMode.Decompress);
        using var reader = new StreamReader(gzip, Encoding.UTF8);
        return reader.ReadToEnd();
    }
}
