using System.Diagnostics;

namespace Loader.Benchmarks;

/// <summary>
/// CPU one process used during a phase, as cores busy on average (1.0: one core flat out). Azurite runs its
/// JavaScript on one thread, so near 1.0 it is the bottleneck; on a 2-core machine, everything shares two.
/// </summary>
internal sealed class CpuMeter
{
    private readonly int? _pid;
    private readonly double? _startSeconds;
    private readonly long _started = Stopwatch.GetTimestamp();

    public CpuMeter(int? pid)
    {
        _pid = pid;
        _startSeconds = pid is { } id ? ProcFs.CpuSeconds(id) : null;
    }

    public double? CoresUsed()
    {
        if (_pid is not { } pid || _startSeconds is not { } start || ProcFs.CpuSeconds(pid) is not { } end)
        {
            return null;
        }

        var wall = Stopwatch.GetElapsedTime(_started).TotalSeconds;
        return wall > 0 ? Math.Round((end - start) / wall, 2) : null;
    }
}
