using System.Globalization;

namespace Loader.Benchmarks;

/// <summary>What the Linux kernel reports about a process in /proc: peak resident memory and CPU time used.</summary>
internal static class ProcFs
{
    // utime and stime count clock ticks of USER_HZ, which Linux fixes at 100 on every mainstream architecture.
    private const double TicksPerSecond = 100;

    /// <summary>VmHWM, the peak resident set size, in MiB; null when the process is gone.</summary>
    public static double? PeakResidentMiB(int pid)
    {
        try
        {
            foreach (var line in File.ReadLines($"/proc/{pid}/status"))
            {
                if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
                {
                    var kib = line["VmHWM:".Length..].Trim().Split(' ')[0];
                    return long.Parse(kib, CultureInfo.InvariantCulture) / 1024.0;
                }
            }
        }
        catch (IOException)
        {
            // The process ended between two polls.
        }

        return null;
    }

    /// <summary>User plus system CPU seconds the process has used so far; null when it is gone.</summary>
    public static double? CpuSeconds(int pid)
    {
        string text;
        try
        {
            text = File.ReadAllText($"/proc/{pid}/stat");
        }
        catch (IOException)
        {
            return null;
        }

        // Field 2, the command name, is in parentheses and may hold spaces: count from after its closing one,
        // where field 3 (state) is first, so utime (field 14) and stime (field 15) are at 11 and 12.
        var fields = text[(text.LastIndexOf(')') + 2)..].Split(' ');
        return (long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture)) / TicksPerSecond;
    }

    /// <summary>The process started with <paramref name="option"/> immediately followed by <paramref name="value"/>, if one runs.</summary>
    public static int? FindByArgument(string option, string value)
    {
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
            {
                continue;
            }

            try
            {
                var arguments = File.ReadAllText(Path.Combine(directory, "cmdline")).Split('\0');
                var at = Array.IndexOf(arguments, option);
                if (at >= 0 && at + 1 < arguments.Length && arguments[at + 1] == value)
                {
                    return pid;
                }
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
            {
                // Gone, or another user's: not ours.
            }
        }

        return null;
    }
}
