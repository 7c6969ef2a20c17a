using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// A Node tool from tools/node_modules (installed from the lock file with npm ci when missing, so a fresh clone
/// needs nothing by hand) run as a child process: started, awaited until its ports answer, stopped and started
/// again on the same ports, its output kept for failure messages.
/// </summary>
public sealed class NodeToolProcess(string tool, IReadOnlyList<string> arguments, IReadOnlyList<int> ports, string? toolsFolder = null) : IAsyncDisposable
{
    private static readonly SemaphoreSlim s_install = new(1, 1);
    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(60);
    private static readonly HashSet<int> s_handedOut = [];

    private const int FirstPortBelowEphemeral = 20_000;
    private const int LastPortBelowEphemeral = 32_000;

    private readonly StringBuilder _output = new();
    private Process? _process;

    /// <summary>What the tool printed so far.</summary>
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

    /// <summary>Starts the process (again, after <see cref="StopAsync"/>) and returns once every port accepts connections.</summary>
    public async Task StartAsync(CancellationToken cancellationToken = default)
    {
        var start = new ProcessStartInfo(await EnsureInstalledAsync(tool, cancellationToken, toolsFolder))
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

        _process = Process.Start(start) ?? throw new InvalidOperationException($"{tool} did not start");
        _process.OutputDataReceived += (_, e) => Append(e.Data);
        _process.ErrorDataReceived += (_, e) => Append(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        foreach (var port in ports)
        {
            await WaitUntilListeningAsync(port, cancellationToken);
        }
    }

    /// <summary>Kills the process tree; whatever the tool keeps on disk stays for the next start.</summary>
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

    /// <summary>
    /// Asks the process to stop as Ctrl-C does (SIGINT), so a tool that saves on shutdown loses nothing it
    /// acknowledged: Azurite keeps tables in memory, saves them every few seconds and on SIGINT — not on SIGTERM.
    /// Kills it if it has not exited within ten seconds.
    /// </summary>
    public async Task StopGracefullyAsync()
    {
        if (_process is { HasExited: false } process)
        {
            PosixSignals.Send(process.Id, PosixSignals.Interrupt);
            using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            try
            {
                await process.WaitForExitAsync(patience.Token);
            }
            catch (OperationCanceledException)
            {
                // Stopped the hard way below.
            }
        }

        await StopAsync();
    }

    public async ValueTask DisposeAsync() => await StopAsync();

    /// <summary>
    /// A TCP port free on the loopback interface now, and never handed out before in this test run. It is taken below
    /// the kernel's ephemeral range (32768 and up on Linux): a port the kernel picked for a listener on port 0 is one it
    /// also gives to outgoing connections, and with tests loading in parallel one of those took such a port between
    /// this call and the tool binding it (Azurite then stopped with EADDRINUSE).
    /// </summary>
    public static int FreePort()
    {
        lock (s_handedOut)
        {
            for (var attempt = 0; attempt < 1_000; attempt++)
            {
                var port = Random.Shared.Next(FirstPortBelowEphemeral, LastPortBelowEphemeral + 1);
                if (!s_handedOut.Add(port))
                {
                    continue;
                }

                try
                {
                    using var listener = new TcpListener(IPAddress.Loopback, port);
                    listener.Start();
                    return port;
                }
                catch (SocketException)
                {
                    // In use by something outside this run: try another.
                }
            }
        }

        throw new InvalidOperationException($"no free TCP port between {FirstPortBelowEphemeral} and {LastPortBelowEphemeral} after 1,000 tries");
    }

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
        var deadline = DateTime.UtcNow + s_startTimeout;
        while (DateTime.UtcNow < deadline)
        {
            if (_process is { HasExited: true })
            {
                throw new InvalidOperationException($"{tool} exited with {_process.ExitCode}: {Output}");
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

        throw new TimeoutException($"{tool} did not listen on {port} within {s_startTimeout.TotalSeconds} s: {Output}");
    }

    /// <summary>
    /// The path of a tool's launcher in node_modules/.bin of <paramref name="toolsFolder"/> (tools/ unless given), installing
    /// from that folder's lock file first when it is missing.
    /// </summary>
    internal static async Task<string> EnsureInstalledAsync(string tool, CancellationToken cancellationToken, string? toolsFolder = null)
    {
        var folder = toolsFolder ?? RepositoryPaths.Tools;
        var path = Path.Combine(folder, "node_modules", ".bin", tool);
        await s_install.WaitAsync(cancellationToken);
        try
        {
            if (!File.Exists(path))
            {
                using var npm = Process.Start(new ProcessStartInfo("npm", "ci --no-audit --no-fund")
                {
                    WorkingDirectory = folder,
                    UseShellExecute = false,
                }) ?? throw new InvalidOperationException("npm did not start");
                await npm.WaitForExitAsync(cancellationToken);
                if (npm.ExitCode != 0 || !File.Exists(path))
                {
                    throw new InvalidOperationException($"npm ci in {folder} failed ({npm.ExitCode}); {tool} is needed here.");
                }
            }
        }
        finally
        {
            s_install.Release();
        }

        return path;
    }
}
