using System.Text;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Telemetry;

/// <summary>Metrics reach an OTLP collector: here a listener that keeps what the exporter posts.</summary>
public sealed class OtlpMetricsExportTests(AzuriteFixture azurite) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task A_load_exports_its_rows_batches_request_units_and_latency_over_OTLP_when_a_collector_is_configured()
    {
        using var collector = new TelemetryReceiver();

        var run = await TelemetryReceiver.LoadAsync(azurite, _directory, rows: 500, partitions: 5, new Dictionary<string, string?>
        {
            ["Loader:Telemetry:OtlpEndpoint"] = collector.Address.TrimEnd('/'),
            ["Loader:Telemetry:OtlpProtocol"] = "HttpProtobuf",
        }, _cancellation);
        Assert.Equal(ExitCodes.Success, run.ExitCode);

        var metrics = (await collector.StopAsync()).Where(post => post.Path == "/v1/metrics").ToList();
        Assert.NotEmpty(metrics);
        // OTLP is protobuf; its strings (names, attribute values) travel as plain UTF-8.
        var payload = string.Join("\n", metrics.Select(post => Encoding.UTF8.GetString(post.Body)));
        foreach (var expected in new[] { "loader.rows", "written", "loader.batches", "loader.batch.duration", "bulk-loader", "BulkLoader" })
        {
            Assert.Contains(expected, payload, StringComparison.Ordinal);
        }

        Assert.Contains(run.Logs.Logs, log => log.Message.Contains($"Exporting metrics to {collector.Address}", StringComparison.Ordinal));
    }
}
