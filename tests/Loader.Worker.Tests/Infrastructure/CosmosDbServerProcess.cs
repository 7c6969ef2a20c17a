using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// A real <c>@vercel/cosmosdb-server</c> process (tools/node_modules) on a free port: it speaks Cosmos DB's REST
/// protocol over HTTPS for databases, containers, JSON point operations, ReadMany and queries. It does not decode
/// the .NET SDK's binary transactional-batch format, so it is never used to test transactional batches.
/// </summary>
public sealed class CosmosDbServerProcess : IAsyncDisposable
{
    /// <summary>The key the client signs with; the server does not check it.</summary>
    public const string Key = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    private readonly StringBuilder _output = new();
    private Process? _process;

    private CosmosDbServerProcess(int port) => Port = port;

    public int Port { get; }

    /// <summary>A connection string for the server; it answers as localhost, which the loader trusts only when told to.</summary>
    public string ConnectionString => $"AccountEndpoint=https://localhost:{Port}/;AccountKey={Key};";

    public static async Task<CosmosDbServerProcess> StartAsync(CancellationToken cancellationToken = default)
    {
        var server = new CosmosDbServerProcess(AzuriteProcess.FreePort());
        var binary = await AzuriteProcess.EnsureInstalledAsync("cosmosdb-server", cancellationToken);
        var start = new ProcessStartInfo(binary)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = RepositoryPaths.Tools,
        };
        start.ArgumentList.Add("--port");
        start.ArgumentList.Add(server.Port.ToString(System.Globalization.CultureInfo.InvariantCulture));
        server._process = Process.Start(start) ?? throw new InvalidOperationException("cosmosdb-server did not start");
        server._process.OutputDataReceived += (_, e) => server.Append(e.Data);
        server._process.ErrorDataReceived += (_, e) => server.Append(e.Data);
        server._process.BeginOutputReadLine();
        server._process.BeginErrorReadLine();
        await server.WaitUntilListeningAsync(cancellationToken);
        return server;
    }

    private void Append(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.AppendLine(line);
            }
        }
    }

    private async Task WaitUntilListeningAsync(CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (DateTime.UtcNow < deadline)
        {
            if (_process is { HasExited: true })
            {
                throw new InvalidOperationException($"cosmosdb-server exited: {_output}");
            }

            try
            {
                using var client = new TcpClient();
                await client.ConnectAsync(IPAddress.Loopback, Port, cancellationToken);
                return;
            }
            catch (SocketException)
            {
                await Task.Delay(100, cancellationToken);
            }
        }

        throw new TimeoutException($"cosmosdb-server did not listen on {Port} within 60 s: {_output}");
    }

    public async ValueTask DisposeAsync()
    {
        if (_process is { HasExited: false } process)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
        }

        _process?.Dispose();
    }
}
