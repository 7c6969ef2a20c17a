using System.Globalization;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// A real Azurite process on free ports: the Table service, the Blob service when asked, and the Queue service (of a
/// sharded load) too when asked. In memory by default; with a location on disk it survives a stop and a start, as the
/// outage tests need.
/// </summary>
public sealed class AzuriteProcess : IAsyncDisposable
{
    private readonly bool _withBlob;
    private readonly bool _withQueue;
    private readonly NodeToolProcess _process;

    private AzuriteProcess(string? location, bool withBlob, bool withQueue, string? release)
    {
        _withBlob = withBlob || withQueue;
        _withQueue = withQueue;
        TablePort = FreePort();
        BlobPort = _withBlob ? FreePort() : 0;
        QueuePort = _withBlob ? FreePort() : 0;
        // No telemetry: Azurite's would probe the cloud metadata address (169.254.169.254); tests talk to loopback only.
        var arguments = new List<string> { "--skipApiVersionCheck", "--loose", "--disableTelemetry", "--tableHost", "127.0.0.1", "--tablePort", Text(TablePort) };
        if (_withBlob)
        {
            arguments.AddRange(["--blobHost", "127.0.0.1", "--blobPort", Text(BlobPort), "--queueHost", "127.0.0.1", "--queuePort", Text(QueuePort)]);
        }

        if (location is null)
        {
            arguments.Add("--inMemoryPersistence");
        }
        else
        {
            Directory.CreateDirectory(location);
            arguments.AddRange(["--location", location]);
        }

        _process = new NodeToolProcess(_withBlob ? "azurite" : "azurite-table", arguments, _withQueue ? [TablePort, BlobPort, QueuePort] : _withBlob ? [TablePort, BlobPort] : [TablePort], ReleaseFolder(release));
    }

    public int TablePort { get; }

    public int BlobPort { get; }

    /// <summary>The Queue service's port (started with the Blob service; a connection string names it when asked for).</summary>
    public int QueuePort { get; }

    public string TableEndpoint => $"http://127.0.0.1:{TablePort}/devstoreaccount1";

    public string BlobEndpoint => $"http://127.0.0.1:{BlobPort}/devstoreaccount1";

    public string QueueEndpoint => $"http://127.0.0.1:{QueuePort}/devstoreaccount1";

    /// <summary>The emulator's published, well-known account key; it grants nothing outside a local emulator.</summary>
    public const string DevelopmentAccountKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    /// <summary>A connection string for the emulator's account at another Table endpoint (a throttling simulator in front of it, a port nothing answers on).</summary>
    public static string ConnectionStringAt(string tableEndpoint) =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DevelopmentAccountKey};TableEndpoint={tableEndpoint.TrimEnd('/')}";

    /// <summary>A connection string for the emulator account on these ports.</summary>
    public string ConnectionString =>
        "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
        + $"AccountKey={DevelopmentAccountKey};"
        + $"TableEndpoint={TableEndpoint};" + (_withBlob ? $"BlobEndpoint={BlobEndpoint};" : "") + (_withQueue ? $"QueueEndpoint={QueueEndpoint};" : "");

    public string Output => _process.Output;

    /// <summary>Starts Azurite: the release tools/ pins, or with <c>release</c> one kept in tools/azurite-releases (benchmarks of a slower service).</summary>
    public static async Task<AzuriteProcess> StartAsync(string? location = null, bool withBlob = false, bool withQueue = false, string? release = null, CancellationToken cancellationToken = default)
    {
        var azurite = new AzuriteProcess(location, withBlob, withQueue, release);
        await azurite.StartAsync(cancellationToken);
        return azurite;
    }

    /// <summary>Starts the process (again, after <see cref="StopAsync"/>) on the same ports.</summary>
    public Task StartAsync(CancellationToken cancellationToken = default) => _process.StartAsync(cancellationToken);

    /// <summary>Kills the process; with a disk location, what it stored is kept for the next start.</summary>
    public Task StopAsync() => _process.StopAsync();

    /// <summary>Stops the process as an orderly shutdown would, so what it acknowledged is on disk for the next start.</summary>
    public Task StopGracefullyAsync() => _process.StopGracefullyAsync();

    public ValueTask DisposeAsync() => _process.DisposeAsync();

    public static int FreePort() => NodeToolProcess.FreePort();

    private static string Text(int port) => port.ToString(CultureInfo.InvariantCulture);

    private static string? ReleaseFolder(string? release)
    {
        if (release is null)
        {
            return null;
        }

        var releases = Path.Combine(RepositoryPaths.Tools, "azurite-releases");
        var folder = Path.Combine(releases, release);
        return File.Exists(Path.Combine(folder, "package.json"))
            ? folder
            : throw new ArgumentException($"no Azurite {release} in {releases}; kept: {string.Join(", ", Directory.GetDirectories(releases).Select(Path.GetFileName))}", nameof(release));
    }
}
