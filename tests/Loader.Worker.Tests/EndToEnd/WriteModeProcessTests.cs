using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// <c>Delete</c> and <c>Replace</c> as a user runs them: the loader's own process, the write mode on the command line,
/// on Table Storage (Azurite) and on Cosmos DB (the real SDK against the stand-in). A delete takes a file of keys alone;
/// a key that names nothing is counted as already absent; a replace of an entity that is not there is a reject naming
/// the service's 404, and the rest of the load goes on.
/// </summary>
public sealed class WriteModeProcessTests(AzuriteFixture azurite, CosmosStandInFixture cosmos) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string> Backends() => new("Tables", "Cosmos");

    /// <summary>A target of the named backend: its settings, and a read of what it holds ((partition key, row key) → v).</summary>
    private (Dictionary<string, string?> Settings, Func<Task<Dictionary<(string, string), string?>>> ReadBack) Target(string backend)
    {
        if (backend == "Tables")
        {
            var table = AzuriteFixture.UniqueTableName("modes");
            return (
                new() { ["Loader:Tables:ConnectionString"] = azurite.ConnectionString, ["Loader:Tables:Table"] = table },
                async () => (await azurite.ReadTableAsync(table, _cancellation)).ToDictionary(pair => pair.Key, pair => pair.Value.Properties.GetValueOrDefault("v") as string));
        }

        var container = CosmosStandInFixture.UniqueContainerName("modes");
        return (
            cosmos.LoaderSettings(container),
            async () => (await cosmos.ReadContainerAsync(container, cancellationToken: _cancellation)).ToDictionary(
                pair => pair.Key,
                pair => pair.Value.TryGetProperty("v", out var v) ? v.GetString() : null));
    }

    private async Task<(int ExitCode, LoadReport Report, string Output)> RunAsync(Dictionary<string, string?> target, string input, params (string Key, string Value)[] settings)
    {
        var all = new Dictionary<string, string?>(target, StringComparer.Ordinal)
        {
            ["Loader:Input"] = input,
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:ReportPath"] = _directory.File("report.json"),
            ["Loader:RejectsPath"] = _directory.File("rejects.csv"),
        };
        foreach (var (key, value) in settings)
        {
            all[key] = value;
        }

        await using var loader = LoaderProcess.Start(all);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(2), _cancellation);
        return (exitCode, ReportWriter.Read(_directory.File("report.json")), loader.Output);
    }

    [Theory]
    [MemberData(nameof(Backends))]
    public async Task Delete_from_a_file_of_keys_and_Replace_run_as_a_process_count_absent_keys_and_reject_missing_entities(string backend)
    {
        var (target, readBack) = Target(backend);
        var stored = _directory.WriteCsv("stored.csv", "pk,rk,v\na,1,one\na,2,two\nb,3,three\nb,4,four\n");
        var load = await RunAsync(target, stored);
        Assert.True(load.ExitCode == ExitCodes.Success, load.Output);

        // Keys alone: no 'v' column, and a key that was never stored.
        var delete = await RunAsync(target, _directory.WriteCsv("delete.csv", "pk,rk\na,1\nb,3\nb,9\n"), ("Loader:WriteMode", "Delete"));

        Assert.True(delete.ExitCode == ExitCodes.Success, delete.Output);
        Assert.Equal((3L, 2L, 1L, 0L), (delete.Report.RowsRead, delete.Report.RowsWritten, delete.Report.RowsAlreadyAbsent, delete.Report.RowsRejected));
        Assert.True(delete.Report.Reconciled);
        Assert.Contains("already absent", delete.Output, StringComparison.Ordinal);
        Assert.Equal(new Dictionary<(string, string), string?> { [("a", "2")] = "two", [("b", "4")] = "four" }, await readBack());

        var replace = await RunAsync(target, _directory.WriteCsv("replace.csv", "pk,rk,v\na,2,TWO\nb,3,gone\n"), ("Loader:WriteMode", "Replace"), ("Loader:MaxRejects", "1"));

        Assert.True(replace.ExitCode == ExitCodes.Success, replace.Output);
        Assert.Equal((2L, 1L, 1L), (replace.Report.RowsRead, replace.Report.RowsWritten, replace.Report.RowsRejected));
        Assert.Equal(new Dictionary<(string, string), string?> { [("a", "2")] = "TWO", [("b", "4")] = "four" }, await readBack());
        var reject = Assert.Single(RejectsFile.Read(_directory.File("rejects.csv")).Rows);
        Assert.Contains("404", reject.Reason, StringComparison.Ordinal);
    }
}
