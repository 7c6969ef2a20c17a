namespace Loader.Worker.Tests.Deployment;

/// <summary>The pinned Bicep CLI of tools/BicepCli, restored from NuGet into the package folder.</summary>
internal static class BicepCompiler
{
    private const string Project = "tools/BicepCli/BicepCli.csproj";

    /// <summary>Restores the compiler package (a no-op when it is there) and returns the path of its executable.</summary>
    public static async Task<string> LocateAsync(CancellationToken cancellationToken)
    {
        var (restored, restoreOutput) = await ToolRun.RunAsync("dotnet", ["restore", Project, "--nologo"], cancellationToken);
        Assert.True(restored == 0, restoreOutput);
        var (found, path) = await ToolRun.RunAsync("dotnet", ["msbuild", Project, "-nologo", "-getProperty:BicepExecutable"], cancellationToken);
        Assert.True(found == 0, path);
        path = path.Trim();
        Assert.True(File.Exists(path), $"no Bicep compiler at '{path}' after restoring {Project}");
        if (!OperatingSystem.IsWindows() && !File.GetUnixFileMode(path).HasFlag(UnixFileMode.UserExecute))
        {
            File.SetUnixFileMode(path, File.GetUnixFileMode(path) | UnixFileMode.UserExecute);
        }

        return path;
    }
}
