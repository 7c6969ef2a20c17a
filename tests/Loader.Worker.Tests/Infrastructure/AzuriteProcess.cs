using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// A real Azurite process (from tools/node_modules, installed with npm ci when missing) on free ports:
/// the Table service, and the Blob service when asked. In memory by default; with a location on disk it
/// survives a stop and a start, as the outage tests need.
/// </summary>
public sealed class AzuriteProcess : IAsyncDisposable
{
    private static readonly SemaphoreSlim s_install = new(1, 1);

    private readonly string? _location;
    private readonly bool _withBlob;
    private readonly StringBuilder _output = new();
    private Process? _process;

    private AzuriteProcess(string? location, bool withBlob, int tablePort, int blobPort)
    {
        _location = location;
        _withBlob = withBlob;
        TablePort = tablePort;
        BlobPort = blobPort;
    }

    public int TablePort { get; }

    public int BlobPort { get; }

    public string TableEndpoint => $"http://127.0.0.1:{TablePort}/devstoreaccount1";

    public string BlobEndpoint => $"http://127.0.0.1:{BlobPort}/devstoreaccount1";

    /// <summary>A connection string for the emulator account on these ports.</summary>
    public string ConnectionString =>
        "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
        + $"AccountKey={Loader.Worker.Backends.Tables.TableConnectionString.DevelopmentAccountKey};"
        + $"TableEndpoint={TableEndpoint};" + (_withBlob ? $"BlobEndpoint={BlobEndpoint};" : "");

    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    public static async Task<AzuriteProcess> StartAsync(string? location = null, bool withBlob = false, CancellationToken cancellationToken = default)
    {
        var azurite = new AzuriteProcess(location, withBlob, FreePort(), withBlob ? FreePort() : 0);
        await azurite.StartAsync(cancellationToken);
        return azurite;
    }

    /// <summary>Starts the process (again, after <see cref="StopAsync"/>) on the same ports.</summary>
    public async Task StartAsync(CancellationToken cancellationToken = default)
    {
        var binary = await EnsureInstalledAsync(_withBlob ? "azurite" : "azurite-table", cancellationToken);
        var arguments = new List<string> { "--skipApiVersionCheck", "--loose", "--tableHost", "127.0.0.1", "--tablePort", TablePort.ToString(System.Globalization.CultureInfo.InvariantCulture) };
        if (_withBlob)
        {
            arguments.AddRange(["--blobHost", "127.0.0.1", "--blobPort", BlobPort.ToString(System.Globalization.CultureInfo.InvariantCulture), "--queuePort", FreePort().ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        }

        if (_location is null)
        {
            arguments.Add("--inMemoryPersistence");
        }
        else
        {
            Directory.CreateDirectory(_location);
            arguments.AddRange(["--location", _location]);
        }

        var start = new ProcessStartInfo(binary)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = RepositoryPaths.Tools,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start) ?? throw new InvalidOperationException("Azurite did not start");
        _process.OutputDataReceived += (_, e) => Append(e.Data);
        _process.ErrorDataReceived += (_, e) => Append(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        await WaitUntilListeningAsync(TablePort, cancellationToken);
        if (_withBlob)
        {
            await WaitUntilListeningAsync(BlobPort, cancellationToken);
        }
    }

    /// <summary>Kills the process; with a disk location, what it stored is kept for the next start.</summary>
    public async Task StopAsync()
    {
        if (_process is { HasExited: false } process)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
        }

        _process?.Dispose();
        _process = null;
    }

    public async ValueTask DisposeAsync() => await StopAsync();

    private void Append(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.AppendLine(line);
        }
    }

    private async Task WaitUntilListeningAsync(int port, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (DateTime.UtcNow < deadline)
        {
            if (_process is { HasExited: true })
            {
                throw new InvalidOperationException($"Azurite exited with {_process.ExitCode}: {Output}");
            }

            try
            {
                using var client = new TcpClient();
                await client.ConnectAsync(IPAddress.Loopback, port, cancellationToken);
                return;
            }
            catch (SocketException)
            {
                await Task.Delay(100, cancellationToken);
            }
        }

        throw new TimeoutException($"Azurite did not listen on {port} within 60 s: {Output}");
    }

    /// <summary>Installs tools/ from its lock file the first time, so a fresh clone can run the tests with dotnet test alone.</summary>
    internal static async Task<string> EnsureInstalledAsync(string binary, CancellationToken cancellationToken)
    {
        var path = Path.Combine(RepositoryPaths.Tools, "node_modules", ".bin", binary);
        await s_install.WaitAsync(cancellationToken);
        try
        {
            if (!File.Exists(path))
            {
                var npm = Process.Start(new ProcessStartInfo("npm", "ci --no-audit --no-fund")
                {
                    WorkingDirectory = RepositoryPaths.Tools,
                    UseShellExecute = false,
                }) ?? throw new InvalidOperationException("npm did not start");
                await npm.WaitForExitAsync(cancellationToken);
                if (npm.ExitCode != 0 || !File.Exists(path))
                {
                    throw new InvalidOperationException($"npm ci in {RepositoryPaths.Tools} failed ({npm.ExitCode}); Azurite is needed for these tests.");
                }
            }
        }
        finally
        {
            s_install.Release();
        }

        return path;
    }

    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
