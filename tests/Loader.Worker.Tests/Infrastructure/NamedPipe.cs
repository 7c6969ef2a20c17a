using System.Diagnostics;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>A named pipe made with <c>mkfifo</c>; the test is skipped where there is none (Windows).</summary>
public static class NamedPipe
{
    public static async Task<string> CreateAsync(string path, CancellationToken cancellationToken)
    {
        Assert.SkipUnless(OperatingSystem.IsLinux() || OperatingSystem.IsMacOS(), "named pipes (mkfifo) are a Unix thing");
        using var mkfifo = Process.Start("mkfifo", [path]);
        await mkfifo.WaitForExitAsync(cancellationToken);
        Assert.Equal(0, mkfifo.ExitCode);
        return path;
    }
}
