using System.Net;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Tests.Backends.Cosmos.Doubles;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Whole loads through the real host with a <see cref="CosmosAdapter"/> the test puts in place of the one
/// <c>Loader:Backend=Cosmos</c> builds, writing to the <see cref="ContainerDouble"/> TEST DOUBLE (no Cosmos DB can run
/// here): the report's RU and throttling numbers, refused rows and the size split, end to end through the pipeline.
/// The switch itself (settings to <see cref="Loader.Worker.Backends.BackendFactory"/>, nothing injected) is
/// <see cref="Backends.BackendSwitchTests"/>'s subject.
/// </summary>
public sealed class CosmosLoadTests : IDisposable
{
    private const string FakeKey = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly ContainerDouble _container = new();

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string input, string mode = "TransactionalBatch") => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Backend"] = "Cosmos",
        ["Loader:Cosmos:ConnectionString"] = $"AccountEndpoint=https://127.0.0.1:8081/;AccountKey={FakeKey};",
        ["Loader:Cosmos:Database"] = "db",
        ["Loader:Cosmos:Container"] = "flights",
        ["Loader:Cosmos:Mode"] = mode,
        ["Loader:PartitionKey"] = "{dest}",
        ["Loader:RowKey"] = "{year}-{month}-{day}-{carrier}-{flight}",
        ["Loader:Retry:BaseDelay"] = "00:00:00.01",
        ["Loader:RejectsPath"] = _directory.File("rejects.csv"),
    };

    private Task<LoaderRun> RunAsync(Dictionary<string, string?> settings) =>
        LoaderRunner.RunAsync(settings, _cancellation, services => services.AddSingleton<IBackendAdapter>(provider =>
            new CosmosAdapter(_container, provider.GetRequiredService<IOptions<LoaderOptions>>().Value.Cosmos, TimeProvider.System, _ => Task.CompletedTask)));

    [Fact]
    public async Task The_sample_loads_into_cosmos_with_the_same_settings_and_the_report_counts_request_units()
    {
        var settings = Settings(Path.Combine(RepositoryPaths.Data, "sample.csv"));
        settings["Loader:Columns:year"] = "Int32";

        var run = await RunAsync(settings);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((300L, 300L), (report.RowsRead, report.RowsWritten));
        Assert.Equal(300, _container.Count);
        Assert.Equal(300 * _container.ChargePerOperation, report.RequestCharge);
        Assert.Equal(_container.ChargePerOperation, report.RequestUnitsPerRow);
        Assert.NotNull(report.RequestUnitsPerSecond);
        Assert.Contains("RU/row", run.Summary, StringComparison.Ordinal);
        Assert.Equal(2024, _container.Get("DEN", "2024-2-5-WN-2667")?["year"]?.GetValue<int>());
        Assert.All(_container.Transactions, t => Assert.True(t.Operations.Count <= 100));
    }

    [Fact]
    public async Task Every_429_is_counted_retried_after_its_retry_after_and_nothing_is_lost()
    {
        var throttles = 0;
        _container.Script = call => call.Transaction is { } t && Interlocked.Increment(ref throttles) <= 4
            ? TransactionalBatchResponseDouble.Throttled(t.Operations.Count, TimeSpan.FromMilliseconds(20))
            : null;

        var run = await RunAsync(Settings(Path.Combine(RepositoryPaths.Data, "sample.csv")));

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((4L, 4L), (report.Throttled, report.Retries));
        Assert.True(report.RetryWaitSeconds >= 0.08, $"waited {report.RetryWaitSeconds} s");
        Assert.Equal(300, _container.Count);
        Assert.Equal(300 * _container.ChargePerOperation, report.RequestCharge);
    }

    [Fact]
    public async Task In_bulk_mode_throttled_items_are_resent_alone_and_landed_ones_never_twice()
    {
        // The script runs on concurrent calls: the set must take concurrent adds.
        var throttledOnce = new System.Collections.Concurrent.ConcurrentDictionary<string, bool>();
        _container.Script = call => call.Point is { } point && point.Id.EndsWith('7') && throttledOnce.TryAdd(point.Id, true)
            ? _container.Response((HttpStatusCode)429, "", 0, TimeSpan.FromMilliseconds(10))
            : null;

        var run = await RunAsync(Settings(Path.Combine(RepositoryPaths.Data, "sample.csv"), "Bulk"));

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(300, report.RowsWritten);
        Assert.Equal(throttledOnce.Count, report.Throttled);
        Assert.False(throttledOnce.IsEmpty);
        var sends = _container.PointOperations.GroupBy(o => (o.PartitionKey, o.Id)).ToDictionary(g => g.Key, g => g.Count());
        Assert.All(sends, pair => Assert.Equal(throttledOnce.ContainsKey(pair.Key.Id) ? 2 : 1, pair.Value));
    }

    [Fact]
    public async Task An_existing_id_under_insert_is_rejected_with_the_reason_and_the_rest_lands()
    {
        var csv = new CsvText("dest", "year", "month", "day", "carrier", "flight").Row("LAX", 2024, 1, 1, "AA", 1).Row("LAX", 2024, 1, 1, "AA", 2).Row("LAX", 2024, 1, 1, "AA", 3);
        _container.Seed("LAX", "2024-1-1-AA-2", """{"id":"2024-1-1-AA-2","pk":"LAX"}""");
        var settings = Settings(_directory.WriteCsv("insert.csv", csv.ToString()));
        settings["Loader:WriteMode"] = "Insert";

        var run = await RunAsync(settings);

        var report = run.RequireReport();
        Assert.Equal((3L, 2L, 1L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        var rejects = File.ReadAllText(_directory.File("rejects.csv"));
        Assert.Contains("refused by the service (409 Conflict): an item with this id already exists in the partition", rejects, StringComparison.Ordinal);
        Assert.Contains("LAX,2024,1,1,AA,2", rejects, StringComparison.Ordinal);
        Assert.Equal(3, _container.Count);
    }

    [Fact]
    public async Task Large_items_are_split_into_transactions_under_the_request_limit()
    {
        var csv = new CsvText("dest", "year", "month", "day", "carrier", "flight", "blob");
        for (var i = 0; i < 20; i++)
        {
            csv.Row("SEA", 2024, 1, 1, "AS", i, new string((char)('a' + i), 300_000));
        }

        var run = await RunAsync(Settings(_directory.WriteCsv("large.csv", csv.ToString())));

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(20, _container.Count);
        Assert.True(_container.Transactions.Count >= 4, $"{_container.Transactions.Count} transactions");
        Assert.All(_container.Transactions, t => Assert.True(t.Operations.Sum(o => System.Text.Encoding.UTF8.GetByteCount(o.Body)) <= 2 * 1024 * 1024));
    }

    [Fact]
    public async Task Only_the_chosen_backends_settings_are_checked_and_missing_ones_are_named()
    {
        var run = await LoaderRunner.RunWithArgumentsAsync(
            ["--input", Path.Combine(RepositoryPaths.Data, "sample.csv"), "--backend", "Cosmos", "--partition-key", "{dest}", "--row-key", "{flight}", "--Loader:Cosmos:PartitionKeyPath=pk"],
            _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        var failures = run.ValidationError!.Failures.ToList();
        Assert.Contains("Loader:Cosmos:Database is required: the database name.", failures);
        Assert.Contains("Loader:Cosmos:Container is required: the container name.", failures);
        Assert.Contains("Loader:Cosmos:ConnectionString or Loader:Cosmos:Endpoint is required to reach the account.", failures);
        Assert.Contains("Loader:Cosmos:PartitionKeyPath 'pk' must name one top-level property, e.g. /pk.", failures);
        Assert.DoesNotContain(failures, f => f.StartsWith("Loader:Tables", StringComparison.Ordinal));
    }

    [Fact]
    public async Task An_unreachable_account_fails_at_once_with_one_clear_message()
    {
        var settings = Settings(Path.Combine(RepositoryPaths.Data, "sample.csv"));
        settings["Loader:Cosmos:ConnectionString"] = $"AccountEndpoint=https://127.0.0.1:{AzuriteProcess.FreePort()}/;AccountKey={FakeKey};";
        settings["Loader:Cosmos:ConnectionMode"] = "Gateway";
        // An hour: a refused connection must end the load at once, not when this runs out (the harness bounds the run).
        settings["Loader:ConnectTimeout"] = "01:00:00";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.StartsWith("Cosmos:", report.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(FakeKey, run.Logs.AllText, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", report.Message, StringComparison.Ordinal); // no stack trace
        Assert.DoesNotContain("Loader:ConnectTimeout", report.Message, StringComparison.Ordinal); // the refusal, not the timeout
    }
}
