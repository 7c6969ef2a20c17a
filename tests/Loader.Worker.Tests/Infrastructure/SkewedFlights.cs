using System.Globalization;
using Loader.DataGen;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// A flights CSV shaped like real data (DataGen's skewed shape: a few partitions of tens of thousands of rows, rare
/// ones of one to three rows, row keys in no sorted order, a few rows repeating earlier keys), the settings that load it,
/// and what the table must hold afterwards: for every key, the last row of the file that carries it.
/// </summary>
public sealed class SkewedFlights
{
    private SkewedFlights(string path, GeneratedData data, Dictionary<(string, string), ExpectedFlight> expected)
    {
        Path = path;
        Data = data;
        Expected = expected;
    }

    public string Path { get; }

    public GeneratedData Data { get; }

    public long Rows => Data.Rows;

    /// <summary>The entities the table ends with: one per distinct key.</summary>
    public IReadOnlyDictionary<(string PartitionKey, string RowKey), ExpectedFlight> Expected { get; }

    /// <param name="directory">Where the file goes.</param>
    /// <param name="rows">Its rows.</param>
    /// <param name="seed">The generator's seed.</param>
    /// <param name="name">The file's name.</param>
    /// <param name="repeatKeys">Whether a few rows repeat an earlier row's keys (as corrections in real data do); without, every row is an entity of its own.</param>
    public static SkewedFlights Write(TestDirectory directory, long rows, int seed = 7, string name = "flights.csv", bool repeatKeys = true)
    {
        var path = directory.File(name);
        GeneratedData data;
        using (var file = File.Create(path))
        {
            var options = GeneratorOptions.Skewed(rows, columns: 14, seed, path);
            data = new FlightCsvGenerator(repeatKeys ? options : options with { Duplicates = 0 }).Write(file);
        }

        var expected = new Dictionary<(string, string), ExpectedFlight>();
        foreach (var line in File.ReadLines(path).Skip(1))
        {
            var cells = line.Split(',');
            var key = (cells[6], $"{cells[0]}-{cells[1]}-{cells[2]}-{cells[3]}-{cells[4]}");
            expected[key] = new ExpectedFlight(int.Parse(cells[9], CultureInfo.InvariantCulture), cells[11]);
        }

        return new SkewedFlights(path, data, expected);
    }

    /// <summary>The settings a user would give to load this file into a table: keys from the flight columns, numbers typed.</summary>
    public Dictionary<string, string?> Settings(string connectionString, string table)
    {
        var settings = KeySettings();
        settings["Loader:Tables:ConnectionString"] = connectionString;
        settings["Loader:Tables:Table"] = table;
        return settings;
    }

    /// <summary>The input, key templates and column types, whatever the backend.</summary>
    public Dictionary<string, string?> KeySettings() => new()
    {
        ["Loader:Input"] = Path,
        ["Loader:PartitionKey"] = "{dest}",
        ["Loader:RowKey"] = "{year}-{month}-{day}-{carrier}-{flight}",
        ["Loader:Columns:year"] = "Int32",
        ["Loader:Columns:flight"] = "Int32",
        ["Loader:Columns:distance"] = "Int32",
        ["Loader:Columns:cancelled"] = "Boolean",
    };

    /// <summary>Fails unless the table holds exactly the expected entities, each with the values of the last row of its key.</summary>
    public void AssertTableEquals(IReadOnlyDictionary<(string, string), StoredEntity> stored)
    {
        Assert.Equal(Expected.Count, stored.Count);
        foreach (var (key, flight) in Expected)
        {
            Assert.True(stored.TryGetValue(key, out var entity), $"the row keyed {key} is missing");
            Assert.Equal(flight.Distance, entity.Properties["distance"]);
            Assert.Equal(flight.Tail, entity.Properties["tail"]);
        }
    }
}

/// <summary>Two values of a flight that tell one version of a row from another: distance (typed) and tail (text, random per row).</summary>
public sealed record ExpectedFlight(int Distance, string Tail);
