using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Hosting;

/// <summary>
/// <c>Loader:Backend</c> decides the adapter through configuration alone: the real host, nothing injected, so the
/// settings' binding, <see cref="BackendFactory"/> and its dry-run wrapper all run. A dry run
/// sends nothing, so no service is needed; which adapter was built shows in whose rules refused which row — one
/// row only Table Storage refuses, one only Cosmos DB does — not only in the name the report prints.
/// </summary>
public sealed class BackendSwitchTests : IDisposable
{
    private const string FakeCosmosKey = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    private static readonly string s_idOf256 = new('k', 256);
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData("Tables", 3L, "column 'v': 32,769 characters, longer than the 32,768 (64 KiB) a string property may hold")]
    [InlineData("Cosmos", 4L, "row key (the item id) is 256 characters, longer than 255")]
    public async Task The_backend_setting_alone_chooses_the_adapter_whose_rules_apply(string backend, long refusedLine, string reason)
    {
        var csv = new CsvText("pk", "rk", "v")
            .Row("p", "1", "short")
            .Row("p", "2", new string('a', 32_769)) // more than a Table string property holds; Cosmos DB has no such limit
            .Row("p", s_idOf256, "x"); // longer than a Cosmos DB id; a Table row key holds 1 KiB
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Backend"] = backend,
            ["Loader:DryRun"] = "true",
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Tables:Table"] = "switch",
            ["Loader:Cosmos:ConnectionString"] = $"AccountEndpoint=https://127.0.0.1:8081/;AccountKey={FakeCosmosKey};",
            ["Loader:Cosmos:Database"] = "db",
            ["Loader:Cosmos:Container"] = "switch",
            ["Loader:RejectsPath"] = _directory.File("rejects.csv"),
        };

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(backend, report.Backend);
        Assert.True(report.DryRun);
        Assert.Equal((3L, 2L, 1L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        var reject = Assert.Single(RejectsFile.Read(settings["Loader:RejectsPath"]!).Rows);
        Assert.Equal(refusedLine, reject.Line);
        Assert.Contains(reason, reject.Reason, StringComparison.Ordinal);
    }
}
