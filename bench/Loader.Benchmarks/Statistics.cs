namespace Loader.Benchmarks;

/// <summary>Summaries over repeated runs: the median, which one disturbed run cannot move far.</summary>
internal static class Statistics
{
    public static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        if (sorted.Length == 0)
        {
            return 0;
        }

        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    public static double? Median(IEnumerable<double?> values)
    {
        var present = values.OfType<double>().ToArray();
        return present.Length == 0 ? null : Median(present);
    }
}
