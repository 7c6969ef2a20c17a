using System.Globalization;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// A real <c>@vercel/cosmosdb-server</c> process (tools/node_modules) on a free loopback port, in plain HTTP: it
/// speaks Cosmos DB's REST protocol for databases, containers, JSON point operations and queries, and keeps
/// everything in memory. It cannot decode the .NET SDK's binary batches; the <c>CosmosStandIn</c> in front of it
/// does (see the tests' <c>CosmosStandInFixture</c>), and is also the TLS end the SDK requires.
/// </summary>
public sealed class CosmosDbServerProcess : IAsyncDisposable
{
    private readonly NodeToolProcess _process;

    private CosmosDbServerProcess(int port)
    {
        Endpoint = new Uri($"http://127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}/");
        _process = new NodeToolProcess("cosmosdb-server", ["--no-ssl", "--host", "127.0.0.1", "--port", port.ToString(CultureInfo.InvariantCulture)], [port]);
    }

    /// <summary>Where cosmosdb-server listens, e.g. <c>http://127.0.0.1:41234/</c>.</summary>
    public Uri Endpoint { get; }

    public static async Task<CosmosDbServerProcess> StartAsync(CancellationToken cancellationToken = default)
    {
        var server = new CosmosDbServerProcess(NodeToolProcess.FreePort());
        await server._process.StartAsync(cancellationToken);
        return server;
    }

    public ValueTask DisposeAsync() => _process.DisposeAsync();
}
