using System.Globalization;

namespace Loader.Benchmarks;

/// <summary>Numbers as the tables print them: invariant culture, thousands separated, a dash when there is nothing to show.</summary>
internal static class Format
{
    public static string Number(double? value, int decimals = 0) =>
        value is { } number ? number.ToString("N" + decimals.ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture) : "–";

    public static string Number(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>Large rates in thousands, so ten of them fit on a line.</summary>
    public static string Thousands(double value) => (value / 1000).ToString("N1", CultureInfo.InvariantCulture) + "k";
}
