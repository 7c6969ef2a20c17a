using System.Diagnostics;
using System.Text;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// The loader as a user runs it: its own process (<c>dotnet Loader.Worker.dll</c> from the test output), settings on
/// the command line, output captured. For what only a separate process can show: SIGKILL, SIGTERM.
/// </summary>
public sealed class LoaderProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly StringBuilder _error = new();

    private LoaderProcess(Process process)
    {
        _process = process;
        _process.OutputDataReceived += (_, e) => Append(e.Data, toError: false);
        _process.ErrorDataReceived += (_, e) => Append(e.Data, toError: true);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    /// <summary>Everything the loader printed, standard output and standard error, in the order it came.</summary>
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

    /// <summary>What the loader printed on standard error alone.</summary>
    public string Error
    {
        get
        {
            lock (_output)
            {
                return _error.ToString();
            }
        }
    }

    public bool HasExited => _process.HasExited;

    /// <summary>The messages of the JSON log lines the process printed (its output is not a terminal, so it logs JSON).</summary>
    public List<string> LoggedMessages() =>
        [.. Output.Split('\n', StringSplitOptions.TrimEntries)
            .Where(line => line.StartsWith('{'))
            .Select(line => System.Text.Json.JsonDocument.Parse(line).RootElement.GetProperty("Message").GetString()!)];

    /// <summary>The process id: how a sharded load's state names the worker (<c>host/pid</c>).</summary>
    public int Id => _process.Id;

    public static LoaderProcess Start(IReadOnlyDictionary<string, string?> settings) => Start(verb: null, settings);

    /// <summary>Starts a verb of a sharded load (<c>plan</c>, <c>work</c>, <c>status</c>), given first as a user gives it.</summary>
    public static LoaderProcess Start(string? verb, IReadOnlyDictionary<string, string?> settings) =>
        StartWithArguments([.. verb is null ? [] : new[] { verb }, .. settings.Select(setting => $"--{setting.Key}={setting.Value}")]);

    /// <summary>Starts the loader with these command-line arguments as they are.</summary>
    public static LoaderProcess StartWithArguments(params string[] arguments) => StartWithArguments(arguments, environment: null);

    /// <summary>Starts the loader with these command-line arguments as they are, and these environment variables set too (null removes one).</summary>
    public static LoaderProcess StartWithArguments(IEnumerable<string> arguments, IReadOnlyDictionary<string, string?>? environment) =>
        new(Process.Start(StartInfo(arguments, environment)) ?? throw new InvalidOperationException("the loader did not start"));

    /// <summary>Starts the loader with these arguments and <paramref name="standardInput"/> piped to it, as <c>cat file | loader ...</c> does.</summary>
    public static LoaderProcess StartWithStandardInput(byte[] standardInput, params string[] arguments)
    {
        var start = StartInfo(arguments, environment: null);
        start.RedirectStandardInput = true;
        var process = Process.Start(start) ?? throw new InvalidOperationException("the loader did not start");
        _ = Task.Run(async () =>
        {
            try
            {
                await process.StandardInput.BaseStream.WriteAsync(standardInput);
                process.StandardInput.Close();
            }
            catch (IOException)
            {
                // The loader stopped reading (it refused the input): the writer of a pipe is told so.
            }
        });
        return new LoaderProcess(process);
    }

    /// <summary>
    /// Starts the loader in <paramref name="workingDirectory"/> (where relative paths lead; the test's own when null), with
    /// <paramref name="environment"/> set too (null removes one).
    /// </summary>
    public static LoaderProcess StartIn(string? workingDirectory, IReadOnlyDictionary<string, string?>? environment, params string[] arguments)
    {
        var start = StartInfo(arguments, environment);
        start.WorkingDirectory = workingDirectory ?? "";
        return new(Process.Start(start) ?? throw new InvalidOperationException("the loader did not start"));
    }

    /// <summary>Starts the loader of another folder than the test output's (a copy of it, changed), with these arguments.</summary>
    public static LoaderProcess StartFrom(string loaderFolder, params string[] arguments) =>
        new(Process.Start(StartInfo(arguments, environment: null, loaderFolder)) ?? throw new InvalidOperationException("the loader did not start"));

    private static ProcessStartInfo StartInfo(IEnumerable<string> arguments, IReadOnlyDictionary<string, string?>? environment, string? loaderFolder = null)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(loaderFolder ?? AppContext.BaseDirectory, "Loader.Worker.dll"));
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string?>())
        {
            if (value is null)
            {
                start.Environment.Remove(name);
            }
            else
            {
                start.Environment[name] = value;
            }
        }

        return start;
    }

    /// <summary>Waits for the loader to exit and returns its exit code; fails the test, with the output, if it takes too long.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(timeout);
        try
        {
            await _process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"the loader did not exit within {timeout}:{Environment.NewLine}{Output}");
        }

        _process.WaitForExit(); // drains the redirected output
        return _process.ExitCode;
    }

    /// <summary>Waits until the loader's progress lines (<c>Loader:LogFormat=Json</c>) show <paramref name="rows"/> rows written; fails the test, with the output, if it exits first.</summary>
    public async Task WhenWrittenAsync(long rows, CancellationToken cancellationToken)
    {
        while (ProgressLine.Parse(Output) is var progress && (progress.Count == 0 || progress[^1].RowsWritten < rows))
        {
            Assert.False(HasExited, $"the loader exited before it wrote {rows:N0} rows:{Environment.NewLine}{Output}");
            await Task.Delay(50, cancellationToken);
        }
    }

    /// <summary>Kills the loader at once, as a crash or an out-of-memory kill would: no checkpoint, no report.</summary>
    public async Task KillAsync()
    {
        _process.Kill();
        await _process.WaitForExitAsync();
    }

    /// <summary>Asks the loader to stop as Container Apps and docker stop do.</summary>
    public void Terminate() => PosixSignals.Send(_process.Id, PosixSignals.Terminate);

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            await KillAsync();
        }

        _process.Dispose();
    }

    private void Append(string? line, bool toError)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.AppendLine(line);
            if (toError)
            {
                _error.AppendLine(line);
            }
        }
    }
}
