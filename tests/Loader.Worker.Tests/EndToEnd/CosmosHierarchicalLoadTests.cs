using System.Globalization;
using System.Text.Json;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// A whole load of the flights data into a container keyed <c>/origin,/dest</c> (hierarchical), with the nested columns
/// <c>sched.dep</c> and <c>sched.arr</c> and a Json column, through the real host, the real SDK and the stand-in; every
/// item is then read back by itself, by its full key, and compared with the last row of the file that carries it.
/// </summary>
public sealed class CosmosHierarchicalLoadTests(CosmosStandInFixture cosmos) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly string _container = CosmosStandInFixture.UniqueContainerName("hierarchy");

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string> Modes() => new("TransactionalBatch", "Bulk");

    /// <summary>One flight as the container must hold it: the values of the last row with its key.</summary>
    private sealed record Expected(string Origin, string Dest, string Id, int Distance, string Tail, string Departure, string Arrival, string Route);

    /// <summary>
    /// The skewed flights with three more columns: <c>sched.dep</c> and <c>sched.arr</c> (times made from the flight
    /// number, so repeated keys differ) and <c>route</c>, a JSON array of the two airports.
    /// </summary>
    private (string Path, Dictionary<(string, string, string), Expected> Expected) Input(long rows)
    {
        var flights = SkewedFlights.Write(_directory, rows);
        var path = _directory.File("flights-nested.csv");
        var expected = new Dictionary<(string, string, string), Expected>();
        using (var writer = new StreamWriter(path))
        {
            var lines = File.ReadLines(flights.Path).GetEnumerator();
            lines.MoveNext();
            writer.WriteLine(lines.Current + ",sched.dep,sched.arr,route");
            var n = 0;
            while (lines.MoveNext())
            {
                var cells = lines.Current.Split(',');
                var departure = string.Create(CultureInfo.InvariantCulture, $"{n % 24:00}:{n % 60:00}");
                var arrival = string.Create(CultureInfo.InvariantCulture, $"{(n + 3) % 24:00}:{(n * 7) % 60:00}");
                var route = $"[\"{cells[5]}\",\"{cells[6]}\"]";
                writer.WriteLine($"{lines.Current},{departure},{arrival},\"{route.Replace("\"", "\"\"", StringComparison.Ordinal)}\"");
                var id = $"{cells[0]}-{cells[1]}-{cells[2]}-{cells[3]}-{cells[4]}";
                expected[(cells[5], cells[6], id)] = new Expected(cells[5], cells[6], id, int.Parse(cells[9], CultureInfo.InvariantCulture), cells[11], departure, arrival, route);
                n++;
            }
        }

        return (path, expected);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Flights_keyed_by_origin_and_dest_with_nested_columns_land_item_by_item(string mode)
    {
        var (input, expected) = Input(2_000);
        var settings = cosmos.LoaderSettings(_container, mode);
        settings["Loader:Input"] = input;
        settings["Loader:Cosmos:PartitionKeyPaths"] = "/origin,/dest";
        settings["Loader:PartitionKey"] = "{origin},{dest}";
        settings["Loader:RowKey"] = "{year}-{month}-{day}-{carrier}-{flight}";
        settings["Loader:Columns:distance"] = "Int32";
        settings["Loader:Columns:route"] = "Json";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((2_000L, 0L), (report.RowsRead, report.RowsRejected));
        Assert.Equal(2_000L, report.RowsWritten + report.RowsSuperseded);
        var container = cosmos.Client.GetContainer(CosmosStandInFixture.Database, _container);
        Assert.Equal(["/origin", "/dest"], (await container.ReadContainerAsync(cancellationToken: _cancellation)).Resource.PartitionKeyPaths);
        var read = await ReadEachAsync(container, expected.Values);
        foreach (var flight in expected.Values)
        {
            Assert.True(read.TryGetValue(flight, out var item), $"{flight} was not found by its full key");
            Assert.Equal(
                (flight.Origin, flight.Dest, flight.Distance, flight.Tail, flight.Departure, flight.Arrival),
                (item.GetProperty("origin").GetString(), item.GetProperty("dest").GetString(), item.GetProperty("distance").GetInt32(), item.GetProperty("tail").GetString(),
                    item.GetProperty("sched").GetProperty("dep").GetString(), item.GetProperty("sched").GetProperty("arr").GetString()));
            Assert.True(JsonElement.DeepEquals(JsonDocument.Parse(flight.Route).RootElement, item.GetProperty("route")), item.GetProperty("route").GetRawText());
            Assert.False(item.TryGetProperty("sched.dep", out _));
        }

        if (mode == "TransactionalBatch")
        {
            var shown = read[expected.Values.First()];
            Measurements.Record("One item as the stand-in gave it back (Loader:Cosmos:PartitionKeyPaths=/origin,/dest, columns sched.dep, sched.arr, route typed Json): "
                + JsonSerializer.Serialize(shown));
        }
    }

    [Fact]
    public async Task A_container_keyed_otherwise_than_the_settings_is_exit_2_at_start_naming_both_definitions()
    {
        await cosmos.Client.GetDatabase(CosmosStandInFixture.Database).CreateContainerIfNotExistsAsync(new ContainerProperties(_container, ["/origin", "/dest"]), cancellationToken: _cancellation);
        var settings = cosmos.LoaderSettings(_container);
        settings["Loader:Input"] = Path.Combine(RepositoryPaths.Data, "sample.csv");
        settings["Loader:PartitionKey"] = "{dest}";
        settings["Loader:RowKey"] = "{year}-{month}-{day}-{carrier}-{flight}";
        settings["Loader:Cosmos:PartitionKeyPath"] = "/dest";
        settings["Loader:Cosmos:CreateIfMissing"] = "false";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Equal(
            $"container '{_container}' is partitioned on '/origin,/dest' (hierarchical), but Loader:Cosmos:PartitionKeyPath is '/dest': the settings must name the container's partition key paths, in order.",
            run.RequireReport().Message);
    }

    /// <summary>Every item by a point read of its id and full key (PartitionKeyBuilder), a few at a time.</summary>
    private async Task<Dictionary<Expected, JsonElement>> ReadEachAsync(Container container, IEnumerable<Expected> flights)
    {
        var found = new Dictionary<Expected, JsonElement>();
        foreach (var chunk in flights.Chunk(16))
        {
            var reads = chunk.Select(async flight =>
            {
                using var response = await container.ReadItemStreamAsync(flight.Id, new PartitionKeyBuilder().Add(flight.Origin).Add(flight.Dest).Build(), cancellationToken: _cancellation);
                if (!response.IsSuccessStatusCode)
                {
                    return (flight, (JsonElement?)null);
                }

                using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: _cancellation);
                return (flight, document.RootElement.Clone());
            });
            foreach (var (flight, item) in await Task.WhenAll(reads))
            {
                if (item is { } value)
                {
                    found[flight] = value;
                }
            }
        }

        return found;
    }
}
