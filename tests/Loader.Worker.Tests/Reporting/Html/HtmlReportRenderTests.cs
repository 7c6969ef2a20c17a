using System.Diagnostics;
using System.Text.Json;
using Loader.ThrottlingSimulator;
using Loader.Worker.Reporting.Html;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Reporting.Html;

/// <summary>
/// The HTML report of a real load (through the throttling simulator before Azurite, so it has throttles, request
/// units and rejects) rendered by Debian's chromium, driven by playwright-core from tools/ (tools/render-report.mjs):
/// no console error, no uncaught exception, no request for anything but the page, every chart drawn with as many
/// points as the report's timeline has entries, the histogram with its buckets and percentile markers, the partitions
/// view (its distribution and its table), and the verdict with its time breakdown at the end. The screenshot
/// is kept in .run/html-report-screenshot.png (docs/html-report.png is the quick start's report, rendered the same way).
/// </summary>
public sealed class HtmlReportRenderTests(AzuriteFixture azurite) : IDisposable
{
    private const string Chromium = "/usr/bin/chromium";
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task The_report_of_a_throttled_load_renders_in_chromium_without_errors_with_every_chart_and_point()
    {
        if (!File.Exists(Chromium))
        {
            Assert.Skip($"{Chromium} is not installed: .ci/run installs Debian's chromium (apt-get install -y chromium); install it to run this test.");
        }

        await using var simulator = await SimulatorHost.StartAsync(
            new SimulatorOptions { Upstream = new Uri(azurite.Azurite.TableEndpoint), RuPerSecond = 4_000, BurstSeconds = 1, LatencyMs = 5, LatencyJitterMs = 20, Seed = 7 }, _cancellation);
        var csv = new CsvText("pk", "rk", "n", "note");
        for (var i = 0; i < 4_000; i++)
        {
            csv.Row(i % 3 == 0 ? "hot" : $"p{i % 37}", $"r{i:D6}", i % 397 == 5 ? "forty" : i.ToString(System.Globalization.CultureInfo.InvariantCulture), new string('x', 300));
        }

        var reportPath = Path.Combine(_directory.Path, "report.json");
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString.Replace(azurite.Azurite.TableEndpoint, simulator.TableEndpoint().AbsoluteUri.TrimEnd('/'), StringComparison.Ordinal),
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("html"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Columns:n"] = "Int32",
            ["Loader:ReportPath"] = reportPath,
            ["Loader:RejectsPath"] = Path.Combine(_directory.Path, "rejects.csv"),
            ["Loader:ProgressInterval"] = "00:00:00.5",
            ["Loader:Retry:BaseDelay"] = "00:00:00.02",
        };

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        var page = Path.Combine(_directory.Path, "report.html");
        Assert.True(File.Exists(page), "the HTML report should lie beside the JSON report");
        Assert.Equal(page, report.HtmlReportPath);
        Assert.True(report.Timeline.Count >= 3, $"a load of several progress intervals: {report.Timeline.Count}");
        Assert.True(report.RejectReasons.Count > 0 && report.RequestCharge > 0);

        var screenshot = Path.Combine(RepositoryPaths.Root, ".run", "html-report-screenshot.png");
        Directory.CreateDirectory(Path.GetDirectoryName(screenshot)!);
        var rendered = await RenderAsync(page, screenshot);

        Assert.Empty(rendered.GetProperty("consoleErrors").EnumerateArray());
        Assert.Empty(rendered.GetProperty("pageErrors").EnumerateArray());
        Assert.Empty(rendered.GetProperty("otherRequests").EnumerateArray());
        var charts = rendered.GetProperty("charts").EnumerateArray().ToDictionary(chart => chart.GetProperty("chart").GetString()!);
        foreach (var name in HtmlReport.TimelineCharts)
        {
            Assert.True(charts.TryGetValue(name, out var chart), $"chart {name} missing");
            Assert.True(chart.GetProperty("width").GetDouble() > 100 && chart.GetProperty("height").GetDouble() > 50, $"chart {name} is not drawn at a visible size");
            var series = chart.GetProperty("series").EnumerateArray().ToList();
            Assert.NotEmpty(series);
            Assert.All(series, line => Assert.Equal(report.Timeline.Count, line.GetProperty("points").GetInt32()));
        }

        var histogram = charts[HtmlReport.LatencyChart];
        Assert.Equal(report.LatencyHistogram.Count, histogram.GetProperty("bars").GetInt32());
        Assert.Equal(["p50", "p95", "p99"], histogram.GetProperty("markers").EnumerateArray().Select(marker => marker.GetString()));
        // The partitions view: one bar per bucket of rows per partition, one table row per partition listed.
        var partitions = report.Partitions!;
        Assert.Equal(partitions.RowsPerPartition.Count, charts[HtmlReport.PartitionsChart].GetProperty("bars").GetInt32());
        Assert.True(charts[HtmlReport.PartitionsChart].GetProperty("width").GetDouble() > 100, "the partitions chart is not drawn at a visible size");
        // The time breakdown: a bar per part, each drawn as long as its share of the load's time (the longest one longest).
        var parts = charts[HtmlReport.BreakdownChart].GetProperty("parts").EnumerateArray().ToList();
        Assert.Equal(["input", "decompressing", "parsing", "service", "throttled", "faults", "paced", "checkpointing"], parts.Select(part => part.GetProperty("part").GetString()));
        var longest = parts.MaxBy(part => part.GetProperty("share").GetDouble());
        Assert.True(longest.GetProperty("share").GetDouble() > 0.05 && longest.GetProperty("width").GetDouble() > 10, $"the longest part is not drawn: {longest}");
        Assert.Equal(parts.MaxBy(part => part.GetProperty("width").GetDouble()).GetProperty("part").GetString(), longest.GetProperty("part").GetString());
        var text = rendered.GetProperty("text");
        Assert.Equal(partitions.Top.Count, text.GetProperty("partitionRows").GetInt32());
        Assert.Equal(report.Verdict!.Sentence, text.GetProperty("verdict").GetString());
        Assert.Equal(report.Verdict.Kind.ToString(), text.GetProperty("verdictKind").GetString());
        Assert.Equal(report.Verdict.Evidence.Select(evidence => evidence.Name), text.GetProperty("evidence").EnumerateArray().Select(name => name.GetString()));
        Assert.Equal("verdict", text.GetProperty("lastSection").GetString());
        Assert.Equal(report.Outcome.ToString(), text.GetProperty("outcome").GetString());
        Assert.Equal($"exit code {report.ExitCode}", text.GetProperty("exitCode").GetString());
        Assert.EndsWith(": reconciled", text.GetProperty("reconciliation").GetString(), StringComparison.Ordinal);
        Assert.Equal(report.RejectReasons.Count, text.GetProperty("rejectReasons").GetInt32());
        Assert.True(new FileInfo(screenshot).Length > 10_000, "the screenshot should hold a rendered page");
        Measurements.Record($"HTML report rendered in chromium: {charts.Count} charts, {report.Timeline.Count} timeline points each, screenshot {screenshot}");
    }

    private async Task<JsonElement> RenderAsync(string page, string screenshot)
    {
        await NodeToolProcess.EnsureInstalledAsync("playwright-core", _cancellation);
        var start = new ProcessStartInfo("node") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = RepositoryPaths.Tools };
        foreach (var argument in new[] { Path.Combine(RepositoryPaths.Tools, "render-report.mjs"), page, screenshot, Chromium })
        {
            start.ArgumentList.Add(argument);
        }

        using var node = Process.Start(start)!;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(_cancellation);
        timeout.CancelAfter(TimeSpan.FromMinutes(2));
        var output = node.StandardOutput.ReadToEndAsync(timeout.Token);
        var errors = node.StandardError.ReadToEndAsync(timeout.Token);
        await node.WaitForExitAsync(timeout.Token);
        Assert.True(node.ExitCode == 0, $"render-report.mjs exited {node.ExitCode}: {await errors}");
        return JsonDocument.Parse(await output).RootElement.Clone();
    }
}
