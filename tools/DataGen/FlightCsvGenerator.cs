using System.Globalization;
using System.Text;

namespace Loader.DataGen;

/// <summary>
/// Synthetic flights: one row per flight, keyed by destination (partition) and date-carrier-flight (row key),
/// so <c>{dest}</c> / <c>{year}-{month}-{day}-{carrier}-{flight}</c> identify a row. Columns: year, month, day,
/// carrier, flight, origin, dest, dep_delay, arr_delay, distance, cancelled, tail, then m1..mN. The layout of
/// partitions and keys is the <see cref="GeneratorOptions.Shape"/>'s.
/// </summary>
public sealed class FlightCsvGenerator(GeneratorOptions options)
{
    private static readonly string[] s_carriers = ["AA", "DL", "UA", "WN", "B6", "AS", "NK", "F9", "HA", "G4"];

    public GeneratedData Write(Stream output)
    {
        var random = new Random(options.Seed);
        using var writer = new StreamWriter(output, new UTF8Encoding(false), 1 << 16);
        writer.NewLine = "\n";
        WriteHeader(writer);
        var layout = options.Shape == DataShape.Skewed
            ? (IFlightLayout)new SkewedLayout(options, random, PartitionSampler(random))
            : new UniformLayout(options, PartitionSampler(random));
        var line = new StringBuilder(256);
        var perPartition = new Dictionary<int, long>();
        for (long row = 0; row < options.Rows; row++)
        {
            var flight = layout.Next(row);
            perPartition[flight.Partition] = perPartition.GetValueOrDefault(flight.Partition) + 1;
            WriteRow(line, random, flight);
            writer.Write(line);
            writer.Write('\n');
            line.Clear();
        }

        return new GeneratedData(
            options.Rows,
            perPartition.Count,
            perPartition.Count == 0 ? 0 : perPartition.Values.Max(),
            perPartition.Count == 0 ? 0 : perPartition.Values.Min(),
            layout.DuplicateRows);
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

    private void WriteRow(StringBuilder line, Random random, Flight flight)
    {
        var c = CultureInfo.InvariantCulture;
        line.Append(c, $"{flight.Date.Year},{flight.Date.Month},{flight.Date.Day},{s_carriers[flight.Carrier]},{flight.Number},");
        line.Append(Airport(random.Next(options.Partitions))).Append(',').Append(Airport(flight.Partition)).Append(',');
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
    internal static string Airport(int number)
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

    /// <summary>Where the next row goes and what keys it has.</summary>
    private interface IFlightLayout
    {
        long DuplicateRows { get; }

        Flight Next(long row);
    }

    /// <summary>
    /// Every row its own keys: the date and flight derive from the row's sequence within its partition, so no two
    /// rows of a partition share date, carrier and flight (and each partition's keys come in sequence).
    /// </summary>
    private sealed class UniformLayout(GeneratorOptions options, Func<int> partitionOf) : IFlightLayout
    {
        private readonly long[] _perPartition = new long[options.Partitions];

        public long DuplicateRows => 0;

        public Flight Next(long row)
        {
            var partition = options.Sorted
                ? (int)(row * options.Partitions / Math.Max(1, options.Rows))
                : partitionOf();
            var sequence = _perPartition[partition]++;
            var daySerial = sequence / s_carriers.Length;
            var date = new DateOnly(2020, 1, 1).AddDays((int)(daySerial / 9000 % 3650));
            return new Flight(partition, date, (int)(sequence % s_carriers.Length), (int)(1 + (daySerial % 9000)));
        }
    }

    /// <summary>See <see cref="DataShape.Skewed"/>.</summary>
    private sealed class SkewedLayout : IFlightLayout
    {
        private const int Days = 365;

        // Carrier and flight number of the n-th flight of a partition on a day: n scrambled over the 90,000 pairs by
        // a multiplier prime to 90,000, so they are unique within the day and come in no sorted order.
        private const int Pairs = 90_000;
        private const int Scramble = 7_919;

        private static readonly DateOnly s_firstDay = new(2013, 1, 1);

        private readonly GeneratorOptions _options;
        private readonly Random _random;
        private readonly Func<int> _partitionOf;
        private readonly Dictionary<long, int> _rareRows = [];
        private readonly Dictionary<int, (int Day, int Count)> _today = [];
        private readonly Dictionary<int, Flight> _last = [];
        private readonly double _duplicateRate;

        public SkewedLayout(GeneratorOptions options, Random random, Func<int> partitionOf)
        {
            _options = options;
            _random = random;
            _partitionOf = partitionOf;
            _duplicateRate = options.Rows == 0 ? 0 : (double)options.Duplicates / options.Rows;
            for (var rare = 0; rare < options.RarePartitions && options.Rows > 0; rare++)
            {
                var rows = 1 + random.Next(3);
                for (var i = 0; i < rows; i++)
                {
                    _rareRows.TryAdd(random.NextInt64(options.Rows), options.Partitions + rare);
                }
            }
        }

        public long DuplicateRows { get; private set; }

        public Flight Next(long row)
        {
            var day = (int)(row * Days / _options.Rows);
            if (_rareRows.TryGetValue(row, out var rare))
            {
                return Remember(NewFlight(rare, day));
            }

            var partition = _partitionOf();
            if (_random.NextDouble() < _duplicateRate && _last.TryGetValue(partition, out var earlier))
            {
                DuplicateRows++;
                return earlier; // a correction of a flight already in the file: the same keys again
            }

            return Remember(NewFlight(partition, day));
        }

        private Flight NewFlight(int partition, int day)
        {
            var count = _today.TryGetValue(partition, out var today) && today.Day == day ? today.Count : 0;
            _today[partition] = (day, count + 1);
            var pair = (int)((((long)count * Scramble) + (partition * 131L) + (day * 17L)) % Pairs);
            return new Flight(partition, s_firstDay.AddDays(day), pair % s_carriers.Length, 1 + (pair / s_carriers.Length));
        }

        private Flight Remember(Flight flight)
        {
            _last[flight.Partition] = flight;
            return flight;
        }
    }

    private readonly record struct Flight(int Partition, DateOnly Date, int Carrier, int Number);
}

/// <summary>What a generated file holds.</summary>
/// <param name="Rows">Data rows.</param>
/// <param name="Partitions">Distinct partition keys that got rows.</param>
/// <param name="LargestPartition">Rows of the largest partition.</param>
/// <param name="SmallestPartition">Rows of the smallest partition.</param>
/// <param name="DuplicateRows">Rows that repeat the keys of an earlier row: the table ends with <c>Rows - DuplicateRows</c> entities.</param>
public sealed record GeneratedData(long Rows, int Partitions, long LargestPartition, long SmallestPartition, long DuplicateRows);
