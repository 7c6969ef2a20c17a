using Loader.CosmosStandIn;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Whole loads through the real host against the stand-in with the Cosmos DB request class and time to live set by
/// configuration: the priority and throughput bucket every write carried, the report counting 429s by the limit
/// they met (sub-status 3212 and 3200 apart), each row's ttl with a bad cell rejected, and the settings refused at start.
/// </summary>
public sealed class CosmosPriorityAndTtlLoadTests(CosmosStandInFixture cosmos) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly string _container = CosmosStandInFixture.UniqueContainerName("prttl");

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string input, string mode, StandInHost? standIn = null)
    {
        var settings = cosmos.LoaderSettings(_container, mode, standIn);
        settings["Loader:Input"] = input;
        settings["Loader:PartitionKey"] = "{dest}";
        settings["Loader:RowKey"] = "{flight}";
        settings["Loader:Retry:BaseDelay"] = "00:00:00.01";
        settings["Loader:RejectsPath"] = _directory.File("rejects.csv");
        return settings;
    }

    private string Flights(int rows)
    {
        var csv = new CsvText("dest", "flight", "note");
        for (var i = 0; i < rows; i++)
        {
            csv.Row($"D{i % 12}", i, new string('n', 300));
        }

        return _directory.WriteCsv("flights.csv", csv.ToString());
    }

    [Theory]
    [InlineData("TransactionalBatch", true)]
    [InlineData("Bulk", true)]
    [InlineData("TransactionalBatch", false)]
    [InlineData("Bulk", false)]
    public async Task The_report_counts_429s_of_the_throughput_bucket_and_of_the_budget_apart_and_shows_the_request_class(string mode, bool bucketBudget)
    {
        await using var standIn = await cosmos.StartStandInAsync(
            bucketBudget ? new StandInOptions { BucketRuPerSecond = 600, BurstSeconds = 0.5 } : new StandInOptions { RuPerSecond = 600, BurstSeconds = 0.5 },
            _cancellation);
        var settings = Settings(Flights(600), mode, standIn);
        settings["Loader:Cosmos:PriorityLevel"] = "Low";
        settings["Loader:Cosmos:ThroughputBucket"] = "2";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var counted = standIn.Stats.Snapshot();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(600L, report.RowsWritten);
        Assert.True(report.Throttled > 0, "the budget should have been hit");
        var bucketThrottled = mode == "Bulk" ? counted.BucketThrottledOperations : counted.BucketThrottledRequests;
        Assert.Equal(bucketBudget ? report.Throttled : 0, bucketThrottled);
        Assert.Equal(
            bucketBudget ? new ThrottledBy(0, report.Throttled, 0) : new ThrottledBy(report.Throttled, 0, 0),
            report.ThrottledBy);
        Assert.Equal(new CosmosRequestClass("Low", 2), report.Cosmos);
        Assert.Contains("priority                  Low   throughput bucket 2", run.Summary, StringComparison.Ordinal);
        Assert.Contains(bucketBudget ? $"3212 throughput bucket {report.Throttled:N0}" : $"3200 RU budget {report.Throttled:N0}", run.Summary, StringComparison.Ordinal);
        var seen = counted.Seen(mode == "Bulk" ? RequestKind.Bulk : RequestKind.TransactionalBatch);
        Assert.Equal((seen.Count, seen.Count), (seen.PriorityLevels.GetValueOrDefault("Low"), seen.ThroughputBuckets.GetValueOrDefault("2")));
    }

    [Theory]
    [InlineData("TransactionalBatch")]
    [InlineData("Bulk")]
    public async Task Each_rows_ttl_comes_from_its_column_and_a_bad_cell_is_rejected_naming_the_column(string mode)
    {
        var input = _directory.WriteCsv("ttl.csv", "dest,flight,expires\nLAX,1,3600\nLAX,2,soon\nLAX,3,\nLAX,4,-1\n");
        var settings = Settings(input, mode);
        settings["Loader:Cosmos:TimeToLiveColumn"] = "expires";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal((3L, 1L), (report.RowsWritten, report.RowsRejected));
        var rejected = Assert.Single(Assert.Single(report.RejectReasons).Examples);
        Assert.Equal(3, rejected.Line);
        Assert.Contains("column 'expires' (Loader:Cosmos:TimeToLiveColumn): 'soon' is not a time to live", rejected.Reason, StringComparison.Ordinal);
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.Equal(3600, items[("LAX", "1")].GetProperty("ttl").GetInt32());
        Assert.False(items[("LAX", "3")].TryGetProperty("ttl", out _));
        Assert.Equal(-1, items[("LAX", "4")].GetProperty("ttl").GetInt32());
    }

    [Fact]
    public async Task A_ttl_column_the_header_does_not_have_is_exit_2_before_anything_is_written()
    {
        var settings = Settings(_directory.WriteCsv("ttl.csv", "dest,flight,expires\nLAX,1,3600\n"), "TransactionalBatch");
        settings["Loader:Cosmos:TimeToLiveColumn"] = "expiry";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains("Loader:Cosmos:TimeToLiveColumn names column 'expiry', which the header does not have (did you mean 'expires'?)", run.RequireReport().Message, StringComparison.Ordinal);
    }

    public static TheoryData<string, string, string, string> RefusedSettings() => new()
    {
        { "Tables", "Loader:Cosmos:TimeToLive", "60", "Loader:Cosmos:TimeToLive is for the Cosmos backend: Table Storage has no time to live" },
        { "Tables", "Loader:Cosmos:TimeToLiveColumn", "expires", "Loader:Cosmos:TimeToLiveColumn is for the Cosmos backend: Table Storage has no time to live" },
        { "Tables", "Loader:Cosmos:PriorityLevel", "Low", "Loader:Cosmos:PriorityLevel is for the Cosmos backend: Table Storage has no priority-based execution" },
        { "Tables", "Loader:Cosmos:ThroughputBucket", "2", "Loader:Cosmos:ThroughputBucket is for the Cosmos backend: Table Storage has no throughput buckets" },
        { "Cosmos", "Loader:Cosmos:TimeToLive", "0", "Loader:Cosmos:TimeToLive 0 is not a time to live the service takes" },
        { "Cosmos", "Loader:Cosmos:ThroughputBucket", "0", "Loader:Cosmos:ThroughputBucket must be between 1 and 5, was 0" },
        { "Cosmos", "Loader:Cosmos:PriorityLevel", "Medium", "Loader:Cosmos:PriorityLevel" },
        { "Cosmos", "Loader:Cosmos:PriorityLevel", "99", "Loader:Cosmos:PriorityLevel '99' is not one of High, Low." },
    };

    [Theory]
    [MemberData(nameof(RefusedSettings))]
    public async Task Settings_the_service_or_the_backend_cannot_take_are_exit_2_naming_the_key(string backend, string key, string value, string message)
    {
        var settings = Settings(_directory.WriteCsv("in.csv", "dest,flight\nLAX,1\n"), "TransactionalBatch");
        settings["Loader:Backend"] = backend;
        settings["Loader:Tables:ConnectionString"] = "UseDevelopmentStorage=true";
        settings["Loader:Tables:Table"] = "flights";
        settings[key] = value;

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains(message, run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Both_ttl_settings_at_once_are_exit_2()
    {
        var settings = Settings(_directory.WriteCsv("in.csv", "dest,flight\nLAX,1\n"), "TransactionalBatch");
        settings["Loader:Cosmos:TimeToLive"] = "60";
        settings["Loader:Cosmos:TimeToLiveColumn"] = "expires";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains("Loader:Cosmos:TimeToLive and Loader:Cosmos:TimeToLiveColumn are both set", run.Error, StringComparison.Ordinal);
    }
}
