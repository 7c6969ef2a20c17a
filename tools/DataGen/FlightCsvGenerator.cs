using System.Globalization;
using System.Text;

namespace Loader.DataGen;

/// <summary>
/// Synthetic flights: one row per flight, keyed by destination (partition) and date-carrier-flight (row key),
/// so <c>{dest}</c> / <c>{year}-{month}-{day}-{carrier}-{flight}</c> load every row exactly once.
/// Columns: year, month, day, carrier, flight, origin, dest, dep_delay, arr_delay, distance, cancelled, tail, then m1..mN.
/// </summary>
public sealed class FlightCsvGenerator(GeneratorOptions options)
{
    private static readonly string[] s_carriers = ["AA", "DL", "UA", "WN", "B6", "AS", "NK", "F9", "HA", "G4"];

    public long Write(Stream output)
    {
        var random = new Random(options.Seed);
        var partitionOf = PartitionSampler(random);
        using var writer = new StreamWriter(output, new UTF8Encoding(false), 1 << 16);
        writer.NewLine = "\n";
        WriteHeader(writer);
        var line = new StringBuilder(256);
        var perPartition = new long[options.Partitions];
        for (long row = 0; row < options.Rows; row++)
        {
            var partition = options.Sorted
                ? (int)(row * options.Partitions / Math.Max(1, options.Rows))
                : partitionOf();
            var sequence = perPartition[partition]++;
            WriteRow(line, random, row, partition, sequence);
            writer.Write(line);
            writer.Write('\n');
            line.Clear();
        }

        return options.Rows;
    }

    private void WriteHeader(StreamWriter writer)
    {
        writer.Write("year,month,day,carrier,flight,origin,dest,dep_delay,arr_delay,distance,cancelled,tail");
        for (var m = 1; m <= options.Columns - GeneratorOptions.KeyColumns; m++)
        {
            writer.Write(string.Create(CultureInfo.InvariantCulture, $",m{m}"));
        }

        writer.Write('\n');
    }

    /// <summary>
    /// The row key must be unique per partition: the flight number and date are derived from the row's
    /// sequence within its partition, so no two rows of a partition share date, carrier and flight.
    /// </summary>
    private void WriteRow(StringBuilder line, Random random, long row, int partition, long sequence)
    {
        var c = CultureInfo.InvariantCulture;
        var carrier = s_carriers[sequence % s_carriers.Length];
        var daySerial = sequence / s_carriers.Length;
        var flight = 1 + (daySerial % 9000);
        var date = new DateOnly(2020, 1, 1).AddDays((int)(daySerial / 9000 % 3650));
        line.Append(c, $"{date.Year},{date.Month},{date.Day},{carrier},{flight},");
        line.Append(Airport(random.Next(options.Partitions))).Append(',').Append(Airport(partition)).Append(',');
        var cancelled = random.Next(50) == 0;
        if (cancelled)
        {
            line.Append(",,"); // no delays for a cancelled flight: empty cells
        }
        else
        {
            line.Append(c, $"{random.Next(-20, 180)},{random.Next(-30, 200)},");
        }

        line.Append(c, $"{random.Next(80, 5000)},{(cancelled ? "true" : "false")},N{random.Next(100, 999)}{(char)('A' + random.Next(26))}{(char)('A' + random.Next(26))}");
        for (var m = 1; m <= options.Columns - GeneratorOptions.KeyColumns; m++)
        {
            line.Append(c, $",{random.NextDouble() * 1000:F3}");
        }
    }

    /// <summary>Three-letter codes AAA, AAB, ... for partition numbers.</summary>
    private static string Airport(int number)
    {
        Span<char> code = stackalloc char[4];
        var length = 3;
        var n = number;
        for (var i = 2; i >= 0; i--)
        {
            code[i] = (char)('A' + (n % 26));
            n /= 26;
        }

        if (n > 0)
        {
            code[3] = (char)('0' + (n % 10));
            length = 4;
        }

        return new string(code[..length]);
    }

    /// <summary>Picks partitions by a Zipf law of exponent <see cref="GeneratorOptions.Skew"/> (0: uniform).</summary>
    private Func<int> PartitionSampler(Random random)
    {
        if (options.Skew == 0)
        {
            return () => random.Next(options.Partitions);
        }

        var cumulative = new double[options.Partitions];
        double total = 0;
        for (var i = 0; i < options.Partitions; i++)
        {
            total += 1 / Math.Pow(i + 1, options.Skew);
            cumulative[i] = total;
        }

        return () =>
        {
            var index = Array.BinarySearch(cumulative, random.NextDouble() * total);
            return Math.Min(options.Partitions - 1, index < 0 ? ~index : index);
        };
    }
}
