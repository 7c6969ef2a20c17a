using System.Net;
using System.Text;
using Loader.Worker.Hosting;
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
        var port = AzuriteProcess.FreePort();
        using var collector = new HttpListener();
        collector.Prefixes.Add($"http://127.0.0.1:{port}/");
        collector.Start();
        var received = CollectAsync(collector);

        var csv = new CsvText("pk", "rk", "n");
        for (var i = 0; i < 500; i++)
        {
            csv.Row($"p{i % 5}", $"r{i}", i);
        }

        var run = await LoaderRunner.RunAsync(new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("otlp"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Telemetry:OtlpEndpoint"] = $"http://127.0.0.1:{port}",
            ["Loader:Telemetry:OtlpProtocol"] = "HttpProtobuf",
        }, _cancellation);
        Assert.Equal(ExitCodes.Success, run.ExitCode);

        collector.Stop();
        var posts = await received;
        var metrics = posts.Where(post => post.Path == "/v1/metrics").ToList();
        Assert.NotEmpty(metrics);
        // OTLP is protobuf; its strings (names, attribute values) travel as plain UTF-8.
        var payload = string.Join("\n", metrics.Select(post => Encoding.UTF8.GetString(post.Body)));
        foreach (var expected in new[] { "loader.rows", "written", "loader.batches", "loader.batch.duration", "bulk-loader", "BulkLoader" })
        {
            Assert.Contains(expected, payload, StringComparison.Ordinal);
        }

        Assert.Contains(run.Logs.Logs, log => log.Message.Contains($"Exporting metrics to http://127.0.0.1:{port}/", StringComparison.Ordinal));
    }

    private static async Task<List<(string Path, byte[] Body)>> CollectAsync(HttpListener listener)
    {
        var posts = new List<(string, byte[])>();
        while (true)
        {
            HttpListenerContext context;
            try
            {
                context = await listener.GetContextAsync();
            }
            catch (Exception exception) when (exception is HttpListenerException or ObjectDisposedException or InvalidOperationException)
            {
                return posts; // stopped
            }

            using var body = new MemoryStream();
            await context.Request.InputStream.CopyToAsync(body);
            posts.Add((context.Request.Url!.AbsolutePath, body.ToArray()));
            context.Response.StatusCode = 200;
            context.Response.Close();
        }
    }
}
