using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Reporting.Html;

/// <summary>The HTML report is an output like the others: proven writable before the load, and never lost silently.</summary>
public sealed class HtmlReportOutputTests(AzuriteFixture azurite) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string table) => new()
    {
        ["Loader:Input"] = _directory.WriteCsv("input.csv", "pk,rk\na,1\nb,2\n"),
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}",
        ["Loader:ReportPath"] = Path.Combine(_directory.Path, "out", "report.json"),
    };

    [Fact]
    public async Task An_html_report_path_that_cannot_be_written_stops_the_load_at_start_naming_the_setting()
    {
        var blocker = _directory.WriteCsv("not-a-folder", "a file where a folder should be");
        var table = AzuriteFixture.UniqueTableName("htmlout");
        var settings = Settings(table);
        settings["Loader:HtmlReportPath"] = Path.Combine(blocker, "report.html");

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.Contains("Loader:HtmlReportPath", run.RequireReport().Message, StringComparison.Ordinal);
        Assert.Equal(0, run.RequireReport().RowsWritten);
    }

    [Fact]
    public async Task Without_its_own_path_the_html_report_lies_beside_the_json_report_and_the_summary_names_it()
    {
        var run = await LoaderRunner.RunAsync(Settings(AzuriteFixture.UniqueTableName("htmlbeside")), _cancellation);

        var page = Path.Combine(_directory.Path, "out", "report.html");
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.StartsWith("<!DOCTYPE html>", File.ReadAllText(page), StringComparison.Ordinal);
        Assert.Contains($"html report      {page}", run.Summary, StringComparison.Ordinal);
    }
}
