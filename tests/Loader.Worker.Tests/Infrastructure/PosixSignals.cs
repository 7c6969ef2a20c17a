using System.Runtime.InteropServices;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// Sends POSIX signals: .NET can only kill a child (SIGKILL), while the tests must also ask one to stop as a
/// container runtime does (SIGTERM) or as Ctrl-C does (SIGINT).
/// </summary>
public static partial class PosixSignals
{
    public const int Interrupt = 2;

    public const int Terminate = 15;

    /// <summary>Sends <paramref name="signal"/> to process <paramref name="processId"/>.</summary>
    public static void Send(int processId, int signal)
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS())
        {
            throw new PlatformNotSupportedException("POSIX signals need Linux or macOS");
        }

        if (Kill(processId, signal) != 0)
        {
            throw new InvalidOperationException($"kill({processId}, {signal}) failed: errno {Marshal.GetLastPInvokeError()}");
        }
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int processId, int signal);
}
