using System.Diagnostics;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Benchmarks;

/// <summary>
/// The loader published as an image would ship it, into bench/results/startup-builds/&lt;name&gt;: how long the publish took
/// (what it adds to a CI build) and how large its output is (the image's app layer).
/// </summary>
internal sealed record StartupBuild(string Name, string PublishCommand, string LoaderDll, double PublishSeconds, double SizeMiB)
{
    /// <summary>The Dockerfile's publish: framework-dependent, compiled to IL, the JIT compiles it as it runs.</summary>
    public static Task<StartupBuild> JitAsync(CancellationToken cancellationToken) =>
        PublishAsync("jit", ["-p:UseAppHost=false"], cancellationToken);

    /// <summary>The same, with ReadyToRun code for linux-x64 in every assembly: the JIT starts from precompiled code.</summary>
    public static Task<StartupBuild> ReadyToRunAsync(CancellationToken cancellationToken) =>
        PublishAsync("readytorun", ["-r", "linux-x64", "--self-contained", "false", "-p:PublishReadyToRun=true", "-p:UseAppHost=false"], cancellationToken);

    private static async Task<StartupBuild> PublishAsync(string name, string[] options, CancellationToken cancellationToken)
    {
        var folder = Path.Combine(BenchPaths.Results, "startup-builds", name);
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true); // a file an older publish left must not count in the size
        }

        var start = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = RepositoryPaths.Root };
        foreach (var argument in (string[])["publish", "src/Loader.Worker/Loader.Worker.csproj", "-c", "Release", "-nologo", .. options, "-o", folder])
        {
            start.ArgumentList.Add(argument);
        }

        var clock = Stopwatch.StartNew();
        using var process = Process.Start(start) ?? throw new InvalidOperationException("dotnet did not start");
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var errors = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        var seconds = clock.Elapsed.TotalSeconds;
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{ShellText.Join(["dotnet", .. start.ArgumentList])} failed ({process.ExitCode}):{Environment.NewLine}{await output}{await errors}");
        }

        var bytes = new DirectoryInfo(folder).EnumerateFiles("*", SearchOption.AllDirectories).Sum(file => file.Length);
        return new StartupBuild(name, ShellText.Join(["dotnet", .. start.ArgumentList]), Path.Combine(folder, "Loader.Worker.dll"), Math.Round(seconds, 1), Math.Round(bytes / 1048576.0, 1));
    }
}
