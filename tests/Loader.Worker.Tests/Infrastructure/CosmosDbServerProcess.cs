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

    private readonly NodeToolProcess _process;

    private CosmosDbServerProcess(int port)
    {
        Port = port;
        _process = new NodeToolProcess("cosmosdb-server", ["--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture)], [port]);
    }

    public int Port { get; }

    /// <summary>A connection string for the server; it answers as localhost, which the loader trusts only when told to.</summary>
    public string ConnectionString => $"AccountEndpoint=https://localhost:{Port}/;AccountKey={Key};";

    public static async Task<CosmosDbServerProcess> StartAsync(CancellationToken cancellationToken = default)
    {
        var server = new CosmosDbServerProcess(NodeToolProcess.FreePort());
        await server._process.StartAsync(cancellationToken);
        return server;
    }

    public ValueTask DisposeAsync() => _process.DisposeAsync();
}
