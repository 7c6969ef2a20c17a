using System.Globalization;
using System.Text.Json;
using Loader.CosmosStandIn;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Whole loads through the real host with <c>Loader:Backend=Cosmos</c> set by configuration alone, the adapter
/// on the real SDK in Gateway mode, against the stand-in in front of a real cosmosdb-server: what lands, what
/// is refused and why, and the report's request units and throttling against what the stand-in counted. Every
/// test runs in both <c>Loader:Cosmos:Mode</c>s.
/// </summary>
public sealed class CosmosLoadTests(CosmosStandInFixture cosmos) : IDisposable, IAsyncDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly string _container = CosmosStandInFixture.UniqueContainerName("load");
    private StandInHost? _throttled;

    public void Dispose() => _directory.Dispose();

    public async ValueTask DisposeAsync()
    {
        if (_throttled is not null)
        {
            await _throttled.DisposeAsync();
        }
    }

    public static TheoryData<string> Modes() => new("TransactionalBatch", "Bulk");

    private Dictionary<string, string?> Settings(string input, string mode, StandInHost? standIn = null)
    {
        var settings = cosmos.LoaderSettings(_container, mode, standIn);
        settings["Loader:Input"] = input;
        settings["Loader:PartitionKey"] = "{dest}";
        settings["Loader:RowKey"] = "{year}-{month}-{day}-{carrier}-{flight}";
        settings["Loader:Retry:BaseDelay"] = "00:00:00.01";
        settings["Loader:RejectsPath"] = _directory.File("rejects.csv");
        return settings;
    }

    /// <summary>Stores an item before the load, as another writer would have.</summary>
    private async Task SeedAsync(Microsoft.Azure.Cosmos.Container container, string partitionKey, string item)
    {
        using var response = await container.CreateItemStreamAsync(new MemoryStream(System.Text.Encoding.UTF8.GetBytes(item)), new Microsoft.Azure.Cosmos.PartitionKey(partitionKey), cancellationToken: _cancellation);
        Assert.True(response.IsSuccessStatusCode, $"seeding {item}: {response.StatusCode}");
    }

    private static string Sample => Path.Combine(RepositoryPaths.Data, "sample.csv");

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task The_sample_lands_as_typed_items_and_the_report_counts_the_request_units_the_service_charged(string mode)
    {
        await using var standIn = await cosmos.StartStandInAsync(new StandInOptions(), _cancellation);
        var settings = Settings(Sample, mode, standIn);
        settings["Loader:Columns:year"] = "Int32";
        settings["Loader:Columns:cancelled"] = "Boolean";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var counted = standIn.Stats.Snapshot();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(("Cosmos", 300L, 300L), (report.Backend, report.RowsRead, report.RowsWritten));
        Assert.Equal(300, counted.OperationsApplied);
        Assert.Equal(counted.RequestChargeTotal, report.RequestCharge);
        Assert.Equal(300 * 5.0, report.RequestCharge); // every sample row is under a kilobyte: 5 RU a write
        Assert.Contains("RU/row", run.Summary, StringComparison.Ordinal);
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.Equal(300, items.Count);
        var item = items[("DEN", "2024-2-5-WN-2667")];
        Assert.Equal((2024, false, JsonValueKind.String), (item.GetProperty("year").GetInt32(), item.GetProperty("cancelled").GetBoolean(), item.GetProperty("dep_delay").ValueKind));
        if (mode == "TransactionalBatch")
        {
            Assert.Equal(counted.BatchRequests, report.Requests);
        }
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Every_429_the_service_sends_is_counted_and_retried_after_its_retry_after_and_nothing_is_lost(string mode)
    {
        _throttled = await cosmos.StartStandInAsync(new StandInOptions { RuPerSecond = 600, BurstSeconds = 0.5 }, _cancellation);
        var csv = new CsvText("dest", "year", "month", "day", "carrier", "flight", "note");
        for (var i = 0; i < 1_500; i++)
        {
            csv.Row($"D{i % 12}", 2024, 1 + (i % 12), 1 + (i % 28), "AA", i, new string('n', 300));
        }

        var run = await LoaderRunner.RunAsync(Settings(_directory.WriteCsv("throttled.csv", csv.ToString()), mode, _throttled), _cancellation);

        var report = run.RequireReport();
        var counted = _throttled.Stats.Snapshot();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((1_500L, 0L), (report.RowsWritten, report.RowsFailed));
        Assert.True(counted.ThrottledOperations > 0, "the budget should have been hit");
        // A transactional batch is throttled whole: one 429 per request. In bulk mode every item comes back on its own.
        Assert.Equal(mode == "Bulk" ? counted.ThrottledOperations : counted.ThrottledRequests, report.Throttled);
        var answers = mode == "Bulk" ? counted.Operations : counted.BatchRequests;
        Assert.Equal(Math.Round((double)report.Throttled / answers, 4), report.ThrottledShare);
        Assert.Equal(counted.RequestChargeTotal, report.RequestCharge);
        Assert.Equal(1_500, counted.OperationsApplied); // each item written once: landed ones are never sent again
        Assert.True(report.RetryWaitSeconds > 0);
        Assert.Equal(1_500, (await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation)).Count);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Under_insert_each_existing_id_is_rejected_on_its_own_line_with_the_services_answer_and_the_rest_lands(string mode)
    {
        // Seven rows of one partition; the service refuses the second and the sixth (their ids exist). A refusal
        // mapped to the wrong operation would reject another line and leave an existing item overwritten or a new one missing.
        var existing = await cosmos.CreateContainerAsync(_container, cancellationToken: _cancellation);
        foreach (var flight in new[] { 2, 6 })
        {
            var id = $"2024-1-1-AA-{flight}";
            await SeedAsync(existing, "LAX", $$"""{"id":"{{id}}","pk":"LAX","note":"before"}""");
        }

        var csv = new CsvText("dest", "year", "month", "day", "carrier", "flight", "note");
        for (var flight = 1; flight <= 7; flight++)
        {
            csv.Row("LAX", 2024, 1, 1, "AA", flight, $"row {flight}");
        }

        var settings = Settings(_directory.WriteCsv("insert.csv", csv.ToString()), mode);
        settings["Loader:WriteMode"] = "Insert";
        settings["Loader:Cosmos:PartitionKeyPath"] = "/pk";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((7L, 5L, 2L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        var rejects = RejectsFile.Read(_directory.File("rejects.csv")).Rows;
        Assert.Equal([3L, 7L], rejects.Select(reject => reject.Line).Order());
        Assert.All(rejects, reject => Assert.Equal("refused by the service (409 Conflict): an item with this id already exists in the partition", reject.Reason));
        Assert.Equal(["LAX,2024,1,1,AA,2,row 2", "LAX,2024,1,1,AA,6,row 6"], rejects.OrderBy(reject => reject.Line).Select(reject => string.Join(',', reject.Fields)));
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.Equal(7, items.Count);
        for (var flight = 1; flight <= 7; flight++)
        {
            var expected = flight is 2 or 6 ? "before" : $"row {flight}";
            Assert.Equal(expected, items[("LAX", $"2024-1-1-AA-{flight}")].GetProperty("note").GetString());
        }
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Under_merge_the_rows_properties_are_laid_over_the_stored_items_and_missing_items_are_created(string mode)
    {
        // Two partitions of 150 rows (two batches each); every other item exists with a property the rows do not carry.
        var existing = await cosmos.CreateContainerAsync(_container, cancellationToken: _cancellation);
        var csv = new CsvText("dest", "year", "month", "day", "carrier", "flight", "delay");
        for (var i = 0; i < 300; i++)
        {
            var (dest, id) = ($"D{i % 2}", $"2024-1-1-AA-{i}");
            csv.Row(dest, 2024, 1, 1, "AA", i, i);
            if (i % 2 == 0)
            {
                var item = $$"""{"id":"{{id}}","pk":"{{dest}}","delay":-1,"gate":"G{{i}}"}""";
                await SeedAsync(existing, dest, item);
            }
        }

        var settings = Settings(_directory.WriteCsv("merge.csv", csv.ToString()), mode);
        settings["Loader:WriteMode"] = "Merge";
        settings["Loader:Columns:delay"] = "Int32";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((300L, 300L, 0L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        Assert.Equal(new Loader.Worker.Reporting.MergeReport("Patch", 150, 0), report.Merge); // the 150 stored items; the others were created
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.Equal(300, items.Count);
        for (var i = 0; i < 300; i++)
        {
            var item = items[($"D{i % 2}", $"2024-1-1-AA-{i}")];
            Assert.Equal(i, item.GetProperty("delay").GetInt32());
            Assert.Equal(i % 2 == 0 ? $"G{i}" : null, item.TryGetProperty("gate", out var gate) ? gate.GetString() : null);
        }
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Merge_patches_rows_of_at_most_10_properties_replaces_wider_ones_and_the_report_says_Mixed(string mode)
    {
        var existing = await cosmos.CreateContainerAsync(_container, cancellationToken: _cancellation);
        var columns = Enumerable.Range(0, 11).Select(i => $"c{i}").ToArray();
        var csv = new CsvText(["dest", "year", "month", "day", "carrier", "flight", .. columns]);
        for (var i = 0; i < 20; i++)
        {
            var item = $$"""{"id":"2024-1-1-AA-{{i}}","pk":"SEA","c0":"old","kept":"k{{i}}"}""";
            await SeedAsync(existing, "SEA", item);

            // Even rows fill two cells (a patch), odd rows all eleven (more than a patch takes).
            csv.Row(["SEA", "2024", "1", "1", "AA", $"{i}", .. columns.Select((_, c) => i % 2 == 0 && c >= 2 ? "" : $"v{i}-{c}")]);
        }

        var settings = Settings(_directory.WriteCsv("mixed.csv", csv.ToString()), mode);
        settings["Loader:WriteMode"] = "Merge";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal((20L, 20L), (report.RowsRead, report.RowsWritten));
        Assert.Equal(new Loader.Worker.Reporting.MergeReport("Mixed", 10, 10), report.Merge);
        Assert.Contains("merged by               Mixed", run.Summary, StringComparison.Ordinal);
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        for (var i = 0; i < 20; i++)
        {
            var item = items[("SEA", $"2024-1-1-AA-{i}")];
            Assert.Equal(($"v{i}-0", $"k{i}"), (item.GetProperty("c0").GetString(), item.GetProperty("kept").GetString()));
            Assert.Equal(i % 2 == 0 ? null : $"v{i}-10", item.TryGetProperty("c10", out var c10) ? c10.GetString() : null);
        }
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Delete_deletes_the_stored_items_and_counts_the_missing_ones_already_absent(string mode)
    {
        // 120 items over two partitions; the input deletes the first 100 of them and names 25 ids that are not stored.
        var existing = await cosmos.CreateContainerAsync(_container, cancellationToken: _cancellation);
        var csv = new CsvText("dest", "year", "month", "day", "carrier", "flight", "delay");
        for (var i = 0; i < 120; i++)
        {
            var (dest, id) = ($"D{i % 2}", $"2024-1-1-AA-{i}");
            var item = $$"""{"id":"{{id}}","pk":"{{dest}}","delay":{{i}}}""";
            await SeedAsync(existing, dest, item);
            if (i < 100)
            {
                csv.Row(dest, 2024, 1, 1, "AA", i, "not a number");
            }

            if (i % 4 == 0 && i < 100)
            {
                csv.Row(dest, 2024, 1, 1, "ZZ", i, "");
            }
        }

        var settings = Settings(_directory.WriteCsv("deletes.csv", csv.ToString()), mode);
        settings["Loader:WriteMode"] = "Delete";
        settings["Loader:Columns:delay"] = "Int32";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((125L, 100L, 25L, 0L, 0L), (report.RowsRead, report.RowsWritten, report.RowsAlreadyAbsent, report.RowsRejected, report.RowsFailed));
        Assert.True(report.Reconciled);
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.Equal(Enumerable.Range(100, 20).Select(i => $"2024-1-1-AA-{i}").Order(StringComparer.Ordinal), items.Keys.Select(key => key.Item2).Order(StringComparer.Ordinal));
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Replace_swaps_the_stored_items_for_the_rows_and_rejects_a_row_whose_item_is_missing(string mode)
    {
        var existing = await cosmos.CreateContainerAsync(_container, cancellationToken: _cancellation);
        var stored = """{"id":"2024-1-1-AA-1","pk":"SEA","delay":-1,"gate":"G1"}""";
        await SeedAsync(existing, "SEA", stored);
        var csv = new CsvText("dest", "year", "month", "day", "carrier", "flight", "delay").Row("SEA", 2024, 1, 1, "AA", 1, 7).Row("SEA", 2024, 1, 1, "AA", 2, 8);
        var settings = Settings(_directory.WriteCsv("replace.csv", csv.ToString()), mode);
        settings["Loader:WriteMode"] = "Replace";
        settings["Loader:Columns:delay"] = "Int32";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal((2L, 1L, 1L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        var item = Assert.Single(items).Value;
        Assert.Equal(7, item.GetProperty("delay").GetInt32());
        Assert.False(item.TryGetProperty("gate", out _), "Replace keeps none of the stored properties the row does not carry");
        Assert.Contains("(404 NotFound): no item with this id is stored in the partition", RejectsFile.Read(_directory.File("rejects.csv")).Rows[0].Reason, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Large_items_go_in_requests_under_the_services_2_MB_limit(string mode)
    {
        await using var standIn = await cosmos.StartStandInAsync(new StandInOptions(), _cancellation);
        var csv = new CsvText("dest", "year", "month", "day", "carrier", "flight", "blob");
        for (var i = 0; i < 20; i++)
        {
            csv.Row("SEA", 2024, 1, 1, "AS", i, new string((char)('a' + i), 300_000));
        }

        var run = await LoaderRunner.RunAsync(Settings(_directory.WriteCsv("large.csv", csv.ToString()), mode, standIn), _cancellation);

        var counted = standIn.Stats.Snapshot();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((20L, 0L), (counted.OperationsApplied, counted.OperationsRefused)); // no request over 2 MB was refused
        Assert.True(counted.BatchRequests >= 4, $"{counted.BatchRequests} requests");
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.Equal(new string('c', 300_000), items[("SEA", "2024-1-1-AS-2")].GetProperty("blob").GetString());
    }

    [Fact]
    public async Task Only_the_chosen_backends_settings_are_checked_and_missing_ones_are_named()
    {
        var run = await LoaderRunner.RunWithArgumentsAsync(
            ["--input", Sample, "--backend", "Cosmos", "--partition-key", "{dest}", "--row-key", "{flight}", "--Loader:Cosmos:PartitionKeyPath=pk"],
            _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        var failures = run.ValidationError!.Failures.ToList();
        Assert.Contains("Loader:Cosmos:Database is required: the database name.", failures);
        Assert.Contains("Loader:Cosmos:Container is required: the container name.", failures);
        Assert.Contains("Loader:Cosmos:ConnectionString or Loader:Cosmos:Endpoint is required to reach the account.", failures);
        Assert.Contains("Loader:Cosmos:PartitionKeyPath 'pk' must be / and a property name, nested with more /name, e.g. /pk or /customer/id.", failures);
        Assert.DoesNotContain(failures, f => f.StartsWith("Loader:Tables", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_refused_connection_to_the_account_ends_the_load_at_once_with_one_clear_message()
    {
        var settings = Settings(Sample, "TransactionalBatch");
        settings["Loader:Cosmos:ConnectionString"] = $"AccountEndpoint=https://127.0.0.1:{NodeToolProcess.FreePort().ToString(CultureInfo.InvariantCulture)}/;AccountKey={CosmosStandInFixture.Key};";
        // An hour: a refused connection must end the load at once, not when this runs out (the harness bounds the run).
        settings["Loader:ConnectTimeout"] = "01:00:00";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.StartsWith("Cosmos:", report.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(CosmosStandInFixture.Key, run.Logs.AllText, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", report.Message, StringComparison.Ordinal); // no stack trace
        Assert.DoesNotContain("Loader:ConnectTimeout", report.Message, StringComparison.Ordinal); // the refusal, not the timeout
    }
}
