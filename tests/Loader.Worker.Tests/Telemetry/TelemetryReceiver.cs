using System.Net;
using System.Text;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Telemetry;

/// <summary>
/// Stands in for a telemetry service (an OTLP collector, the Application Insights ingestion endpoint): an HTTP
/// listener on a free port that keeps every request body and answers 200 with the answer it was given.
/// </summary>
internal sealed class TelemetryReceiver : IDisposable
{
    private readonly HttpListener _listener = new();
    private readonly string _answer;
    private readonly Task<List<(string Path, byte[] Body)>> _received;

    public TelemetryReceiver(string answer = "")
    {
        _answer = answer;
        Address = $"http://127.0.0.1:{AzuriteProcess.FreePort()}/";
        _listener.Prefixes.Add(Address);
        _listener.Start();
        _received = CollectAsync();
    }

    /// <summary>Where it listens, with a trailing slash.</summary>
    public string Address { get; }

    /// <summary>Stops listening and returns what was posted, in order.</summary>
    public async Task<List<(string Path, byte[] Body)>> StopAsync()
    {
        _listener.Stop();
        return await _received;
    }

    public void Dispose() => _listener.Close();

    /// <summary>Runs a small load of <paramref name="rows"/> rows over <paramref name="partitions"/> keys into Azurite with extra settings.</summary>
    public static Task<LoaderRun> LoadAsync(
        AzuriteFixture azurite, TestDirectory directory, int rows, int partitions, IReadOnlyDictionary<string, string?> telemetrySettings, CancellationToken cancellationToken)
    {
        var csv = new CsvText("pk", "rk", "n");
        for (var i = 0; i < rows; i++)
        {
            csv.Row($"p{i % partitions}", $"r{i}", i);
        }

        var settings = new Dictionary<string, string?>(telemetrySettings)
        {
            ["Loader:Input"] = directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("telemetry"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
        };
        return LoaderRunner.RunAsync(settings, cancellationToken);
    }

    private async Task<List<(string, byte[])>> CollectAsync()
    {
        var posts = new List<(string, byte[])>();
        var answer = Encoding.UTF8.GetBytes(_answer);
        while (true)
        {
            HttpListenerContext context;
            try
            {
                context = await _listener.GetContextAsync();
            }
            catch (Exception exception) when (exception is HttpListenerException or ObjectDisposedException or InvalidOperationException)
            {
                return posts; // stopped
            }

            using var body = new MemoryStream();
            await context.Request.InputStream.CopyToAsync(body);
            posts.Add((context.Request.Url!.AbsolutePath, body.ToArray()));
            context.Response.StatusCode = 200;
            if (answer.Length > 0)
            {
                context.Response.ContentType = "application/json";
                await context.Response.OutputStream.WriteAsync(answer);
            }

            context.Response.Close();
        }
    }
}
