using CsvHelper;

namespace Loader.Benchmarks;

/// <summary>
/// The fewest batch requests a flight CSV can be written in: every batch of a partition key full (the loader's default
/// batch size) but its last. What the loader sends against it says how well its buffer of partial batches fills them.
/// </summary>
internal static class FullBatchMinimum
{
    public const int BatchSize = 100;

    public static long Of(string csvPath)
    {
        var rowsByKey = new Dictionary<string, long>(StringComparer.Ordinal);
        using var file = File.OpenRead(csvPath);
        using var csv = CsvReader.Create(file, new CsvReaderOptions { HasHeader = true, PoolStrings = true }, leaveOpen: false);
        var column = csv.Headers.ToList().IndexOf(FlightSchema.PartitionColumn);
        while (csv.Read())
        {
            var key = csv.GetString(column);
            rowsByKey[key] = rowsByKey.GetValueOrDefault(key) + 1;
        }

        return rowsByKey.Values.Sum(rows => (rows + BatchSize - 1) / BatchSize);
    }
}
