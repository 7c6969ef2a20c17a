using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Hosting;

/// <summary>What a load does before its first batch: only what the load needs.</summary>
public sealed class StartupWorkTests : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(1);
    private readonly TestDirectory _directory = new();
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    public void Dispose() => _directory.Dispose();

    /// <summary>
    /// The settings' meanings come from the XML documentation beside the assembly (close to a megabyte), for <c>--help</c>
    /// and the configuration page only: a load finds unknown keys and the secrets to redact without reading it. A loader
    /// whose documentation file is broken shows it: it loads, and still names a mistyped key with the key meant, while
    /// <c>--help</c>, which reads it, fails.
    /// </summary>
    [Fact]
    public async Task A_load_starts_without_reading_the_settings_documentation()
    {
        var loader = LoaderWithBrokenDocumentation();
        var input = _directory.WriteCsv("in.csv", "pk,rk,n\np,r1,1\np,r2,2\n");
        string[] load = ["--input", input, "--table", "flights", "--partition-key", "{pk}", "--row-key", "{rk}", "--dry-run", "--Loader:LogFormat=Json"];

        await using var dryRun = LoaderProcess.StartFrom(loader, load);
        var loaded = await dryRun.WaitForExitAsync(s_timeout, _cancellation);
        await using var mistyped = LoaderProcess.StartFrom(loader, [.. load, "--Loader:BatchSise=10"]);
        var refused = await mistyped.WaitForExitAsync(s_timeout, _cancellation);
        await using var help = LoaderProcess.StartFrom(loader, "--help");
        var helped = await help.WaitForExitAsync(s_timeout, _cancellation);

        Assert.True(loaded == ExitCodes.Success, $"exit {loaded}:{Environment.NewLine}{dryRun.Output}");
        Assert.Contains("2 read", dryRun.Output, StringComparison.Ordinal);
        Assert.True(refused == ExitCodes.InvalidConfiguration, $"exit {refused}:{Environment.NewLine}{mistyped.Output}");
        Assert.Contains("did you mean Loader:BatchSize?", mistyped.Output, StringComparison.Ordinal);
        Assert.NotEqual(ExitCodes.Success, helped); // the file is broken indeed, and read where it is needed
    }

    /// <summary>The test output's loader in a folder of its own (its dependencies linked), with a Loader.Worker.xml that is no XML.</summary>
    private string LoaderWithBrokenDocumentation()
    {
        var folder = _directory.File("loader");
        Directory.CreateDirectory(folder);
        foreach (var entry in new DirectoryInfo(AppContext.BaseDirectory).EnumerateFileSystemInfos())
        {
            var link = Path.Combine(folder, entry.Name);
            if (entry.Name.StartsWith("Loader.Worker.", StringComparison.Ordinal))
            {
                // Copied, not linked: the host finds the application's folder by the real path of its .dll.
                if (entry.Name != "Loader.Worker.xml" && entry is FileInfo file)
                {
                    file.CopyTo(link);
                }
            }
            else
            {
                File.CreateSymbolicLink(link, entry.FullName);
            }
        }

        File.WriteAllText(Path.Combine(folder, "Loader.Worker.xml"), "<doc><members><member name=\"broken\">");
        return folder;
    }
}
