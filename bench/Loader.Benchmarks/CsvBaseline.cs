using System.Diagnostics;
using CsvHelper;

namespace Loader.Benchmarks;

/// <summary>
/// The dry run's baseline: the same CSV read by CsvHelper alone, every field of every record taken as a string (what a
/// script reading the file with it does), in this process on one thread. Its CPU per row is what parsing costs before
/// the loader maps, validates and batches anything.
/// </summary>
internal static class CsvBaseline
{
    public static CsvBaselineSample Read(string csvPath, int repeat)
    {
        var clock = Stopwatch.StartNew();
        var cpuBefore = ProcFs.CpuSeconds(Environment.ProcessId);
        long rows = 0;
        long characters = 0;
        using (var file = File.OpenRead(csvPath))
        using (var csv = CsvReader.Create(file, new CsvReaderOptions { HasHeader = true }, leaveOpen: false))
        {
            while (csv.Read())
            {
                rows++;
                for (var field = 0; field < csv.FieldCount; field++)
                {
                    characters += csv.GetString(field).Length;
                }
            }
        }

        var cpu = ProcFs.CpuSeconds(Environment.ProcessId) - cpuBefore;
        return new CsvBaselineSample(repeat, rows, characters, Math.Round(clock.Elapsed.TotalSeconds, 3), cpu is { } seconds ? Math.Round(seconds, 3) : null);
    }
}

/// <summary>One read of the CSV by CsvHelper alone.</summary>
internal sealed record CsvBaselineSample(int Repeat, long Rows, long Characters, double WallSeconds, double? CpuSeconds)
{
    public double? CpuMicrosecondsPerRow => CpuSeconds is { } cpu && Rows > 0 ? Math.Round(cpu * 1e6 / Rows, 3) : null;
}
