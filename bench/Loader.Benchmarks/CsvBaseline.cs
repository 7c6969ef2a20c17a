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
    public static CsvBaselineSample Read(string csvPath, int repeat) => Measure(csvPath, repeat, _ => Characters);

    /// <summary>
    /// Reads the CSV with CsvHelper, timed by the wall clock and this process's CPU: every baseline is measured the same way.
    /// </summary>
    /// <param name="csvPath">The CSV, with its header.</param>
    /// <param name="repeat">The run's number, kept in the sample.</param>
    /// <param name="startReading">
    /// Called once with the reader, its header read; returns what reads each record, and what that returns is summed
    /// into the sample, so its work cannot be left out.
    /// </param>
    public static CsvBaselineSample Measure(string csvPath, int repeat, Func<CsvReader, Func<CsvReader, long>> startReading)
    {
        var clock = Stopwatch.StartNew();
        var cpuBefore = ProcFs.CpuSeconds(Environment.ProcessId);
        long rows = 0;
        long checksum = 0;
        using (var file = File.OpenRead(csvPath))
        using (var csv = CsvReader.Create(file, new CsvReaderOptions { HasHeader = true }, leaveOpen: false))
        {
            var read = startReading(csv);
            while (csv.Read())
            {
                rows++;
                checksum += read(csv);
            }
        }

        var cpu = ProcFs.CpuSeconds(Environment.ProcessId) - cpuBefore;
        return new CsvBaselineSample(repeat, rows, checksum, Math.Round(clock.Elapsed.TotalSeconds, 3), cpu is { } seconds ? Math.Round(seconds, 3) : null);
    }

    /// <summary>Every field of the record taken as a string: the characters read.</summary>
    private static long Characters(CsvReader csv)
    {
        long characters = 0;
        for (var field = 0; field < csv.FieldCount; field++)
        {
            characters += csv.GetString(field).Length;
        }

        return characters;
    }
}

/// <summary>One read of the CSV by CsvHelper alone.</summary>
internal sealed record CsvBaselineSample(int Repeat, long Rows, long Characters, double WallSeconds, double? CpuSeconds)
{
    public double? CpuMicrosecondsPerRow => CpuSeconds is { } cpu && Rows > 0 ? Math.Round(cpu * 1e6 / Rows, 3) : null;
}
