using System.Text.RegularExpressions;
using System.Xml.Linq;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting.Html;
using Loader.Worker.Reporting.Partitions;
using Loader.Worker.Reporting.Verdict;
using Loader.Worker.Security;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Reporting.Html;

public sealed partial class HtmlReportTests
{
    internal static LoadReport Report(int samples = 7, double? requestCharge = 12_345, IReadOnlyList<RejectReason>? rejects = null) => new()
    {
        Backend = "Tables",
        DryRun = false,
        Input = "flights.csv",
        Target = "table 'flights'",
        Outcome = ReportOutcome.CompletedWithFailures,
        ExitCode = 1,
        Message = "3 rows could not be written",
        StartedAt = new DateTimeOffset(2026, 11, 23, 10, 0, 0, TimeSpan.Zero),
        FinishedAt = new DateTimeOffset(2026, 11, 23, 10, 0, 35, TimeSpan.Zero),
        ElapsedSeconds = 35,
        RowsRead = 1_010,
        RowsWritten = 1_000,
        RowsRejected = 5,
        RowsSuperseded = 2,
        RowsFailed = 3,
        RowsSkipped = 0,
        RowsAlreadyWritten = 0,
        Reconciled = true,
        Batches = 12,
        Requests = 20,
        RowsPerSecond = 28.6,
        LatencyMs = new LatencySummary(40, 80, 95, 130, 150, 50),
        LatencyHistogram = [new(10, 20, 4), new(20, 40, 9), new(40, 80, 5), new(80, 160, 2)],
        Throttled = 4,
        ThrottledShare = 0.2,
        Retries = 8,
        RetryWaitSeconds = 1.5,
        RequestCharge = requestCharge,
        RequestUnitsPerRow = requestCharge is null ? null : 12.3,
        RequestUnitsPerSecond = requestCharge is null ? null : 352.7,
        Concurrency = new ConcurrencyReport("Adaptive", 1, 5.5, 16, 8),
        PacedRequestUnitsPerSecond = requestCharge is null ? null : 400,
        Timeline = [.. Enumerable.Range(1, samples).Select(i => new ProgressSample(i * 5, i * 140, i * 3, i / 2, i * 1_700, 8, requestCharge is null ? null : 400, i % 5))],
        PeakMemoryMiB = 120,
        Errors = [new ErrorCount("503 ServerBusy after 10 attempts", 3)],
        RejectReasons = rejects ?? [new RejectReason("column 'n': '…' is not a valid Int32", 5, [new RejectExample(4, "line 4", "column 'n': 'forty' is not a valid Int32", "eu,4,forty,<b>bold</b>")])],
        Settings = new Dictionary<string, string> { ["Loader:Input"] = "flights.csv", ["Loader:Tables:ConnectionString"] = SettingsCatalog.Hidden },
        Partitions = new PartitionsReport(
            Count: 4,
            Estimated: false,
            Top: [new("<hot&key>", 900, 0, 9, 20.5, 3.3, 4, 1), new("eu", 60, 0, 1, 0.5, 0, 0, 0), new("us", 40, 0, 1, 0.4, 0, 0, 0), new("ap", 10, 0, 1, 0.1, 0, 0, 0)],
            RowsPerPartition: [new(8, 15, 1, 10), new(16, 31, 0, 0), new(32, 63, 2, 100), new(64, 127, 0, 0), new(128, 255, 0, 0), new(256, 511, 0, 0), new(512, 1023, 1, 900)]),
        Verdict = new LimitVerdict(LimitKind.HotPartition, "One hot partition limited the load: partition '<hot&key>' had a batch at the service 68% of the time.", Decisive: true,
            [new("heldShare", 0.68, "partition '<hot&key>' at the service or backing off: 68% of the load's time")]),
        TimeBreakdown = new TimeBreakdown(35, 2, 0.5, 0.25, 30, 21, 3.25, 0, 0, 0.4, 7, 0.2, 2),
    };

    [Fact]
    public void Every_chart_has_one_point_per_timeline_entry_and_the_histogram_its_buckets_and_percentiles()
    {
        var report = Report(samples: 7);

        var page = XDocument.Parse(Svg(HtmlReport.Render(report)));

        foreach (var chart in HtmlReport.TimelineCharts)
        {
            var svg = page.Descendants(Name("svg")).Single(element => (string?)element.Attribute("data-chart") == chart);
            var lines = svg.Elements(Name("polyline")).ToList();
            Assert.NotEmpty(lines);
            Assert.All(lines, line => Assert.Equal(7, ((string)line.Attribute("points")!).Split(' ').Length));
        }

        var histogram = page.Descendants(Name("svg")).Single(element => (string?)element.Attribute("data-chart") == HtmlReport.LatencyChart);
        Assert.Equal([4, 9, 5, 2], histogram.Elements(Name("rect")).Where(IsBar).Select(bar => (int)bar.Attribute("data-requests")!));
        Assert.Equal(["p50", "p95", "p99"], histogram.Elements(Name("line")).Where(line => line.Attribute("data-marker") is not null).Select(line => (string)line.Attribute("data-marker")!));
    }

    [Fact]
    public void The_partitions_view_has_a_bar_per_bucket_and_a_row_per_listed_partition_its_key_escaped()
    {
        var report = Report();

        var html = HtmlReport.Render(report);

        var distribution = XDocument.Parse(Svg(html)).Descendants(Name("svg")).Single(element => (string?)element.Attribute("data-chart") == HtmlReport.PartitionsChart);
        Assert.Equal([1, 0, 2, 0, 0, 0, 1], distribution.Elements(Name("rect")).Where(IsBar).Select(bar => (int)bar.Attribute("data-count")!));
        // An empty bucket has no height; a bucket of one partition, beside one of two, still shows.
        var heights = distribution.Elements(Name("rect")).Where(IsBar).Select(bar => double.Parse((string)bar.Attribute("height")!, System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.Equal(0, heights[1]);
        Assert.True(heights[6] >= 3 && heights[2] > heights[6], string.Join(", ", heights));
        Assert.Equal(4, Regex.Count(html, "<tr class=\"partition\">"));
        Assert.Contains("<code>&lt;hot&amp;key&gt;</code></td><td class=\"n\">900</td><td class=\"n\">9</td><td class=\"n\">20.5 s</td><td class=\"n\">3.3 s</td><td class=\"n\">4</td><td class=\"n\">1</td>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<hot&key>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void The_page_ends_with_the_verdict_its_evidence_and_a_bar_per_part_of_the_time_breakdown()
    {
        var report = Report();

        var html = HtmlReport.Render(report);

        var verdict = html.IndexOf("<section id=\"verdict\">", StringComparison.Ordinal);
        Assert.True(verdict > html.IndexOf("<section id=\"settings\">", StringComparison.Ordinal), "the verdict comes after the settings");
        Assert.Equal(-1, html.IndexOf("<section", verdict + 1, StringComparison.Ordinal));
        Assert.Contains("id=\"verdict-sentence\" data-kind=\"HotPartition\">One hot partition limited the load: partition &#39;&lt;hot&amp;key&gt;&#39;", html, StringComparison.Ordinal);
        Assert.Contains("<li data-evidence=\"heldShare\">", html, StringComparison.Ordinal);
        var breakdown = XDocument.Parse(Svg(html)).Descendants(Name("svg")).Single(element => (string?)element.Attribute("data-chart") == HtmlReport.BreakdownChart);
        var parts = breakdown.Elements(Name("rect")).Where(rect => rect.Attribute("data-part") is not null).ToDictionary(rect => (string)rect.Attribute("data-part")!, rect => (double)rect.Attribute("data-share")!);
        Assert.Equal(["input", "decompressing", "parsing", "service", "throttled", "faults", "paced", "checkpointing"], parts.Keys);
        // Of 35 s: 0.5 s waiting for the input, 2 - 0.5 - 0.25 s parsing, 21 s at the service, 3.25 s throttled back-off.
        Assert.Equal([0.0143, 0.0071, 0.0357, 0.6, 0.0929, 0, 0, 0.0114], parts.Values.Select(share => Math.Round(share, 4)));
    }

    [Fact]
    public void The_rates_are_the_growth_of_each_total_over_the_interval_before_each_point()
    {
        ProgressSample[] samples = [new(2, 100, 1, 0, 10, 4, null), new(4, 500, 2, 2, 30, 4, null), new(4, 500, 2, 2, 30, 4, null), new(10, 500, 3, 8, 90, 4, null)];

        Assert.Equal([50, 200, 200, 0], HtmlReport.Rate(samples, sample => sample.RowsWritten));
        Assert.Equal([0, 1, 1, 1], HtmlReport.Rate(samples, sample => sample.Throttled));
        Assert.Equal([5, 10, 10, 10], HtmlReport.Rate(samples, sample => sample.RequestCharge));
    }

    [Fact]
    public void The_page_loads_nothing_from_elsewhere_and_runs_no_script()
    {
        var html = HtmlReport.Render(Report());

        Assert.Contains("Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<script", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotMatch(ExternalReference(), html);
    }

    [Fact]
    public void A_row_of_a_rejects_file_read_back_is_shown_on_its_first_line_with_its_line_in_this_input_beside_it()
    {
        var html = HtmlReport.Render(Report(rejects: [new RejectReason("column 'n': '…' is not a valid Int32", 1, [new RejectExample(9, "line 9", "column 'n': 'seven' is not a valid Int32", "SEA,7,seven", InputLine: 8)])]));

        Assert.Contains("line 9 (line 8 of this input)</span>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Outcome_exit_code_reconciliation_rejects_failures_and_settings_are_shown_with_the_rows_text_escaped()
    {
        var html = HtmlReport.Render(Report());

        Assert.Contains(">CompletedWithFailures</span>", html, StringComparison.Ordinal);
        Assert.Contains(">exit code 1</span>", html, StringComparison.Ordinal);
        Assert.Contains("rows read 1,010 = written 1,000 + rejected 5 + superseded 2 + failed 3: reconciled", html, StringComparison.Ordinal);
        Assert.Contains("column &#39;n&#39;: &#39;…&#39; is not a valid Int32", html, StringComparison.Ordinal);
        Assert.Contains("line 4</span>", html, StringComparison.Ordinal);
        Assert.Contains("eu,4,forty,&lt;b&gt;bold&lt;/b&gt;", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<b>bold</b>", html, StringComparison.Ordinal);
        Assert.Contains("503 ServerBusy after 10 attempts", html, StringComparison.Ordinal);
        Assert.Contains("<th>Loader:Tables:ConnectionString</th><td>(set, not shown)</td>", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_page_written_to_an_output_has_no_secret_in_any_text_it_shows()
    {
        const string Key = "aHRtbC1wYWdlLWtleQ==";
        using var directory = new TestDirectory();
        var report = Report() with
        {
            Input = "https://acct.blob.core.windows.net/in/flights.csv?sv=1&sig=aW5wdXQ%3D",
            Message = $"the service said: key {Key} & more",
            Errors = [new ErrorCount($"403 for https://u:hunter22@host/t?sig=abc ({Key})", 3)],
        };

        await HtmlReport.WriteAsync(report, new LocalOutputFile(directory.File("report.html"), new Redaction([Key])), TestContext.Current.CancellationToken);

        var page = await File.ReadAllTextAsync(directory.File("report.html"), TestContext.Current.CancellationToken);
        Assert.Contains("flights.csv?sv=(removed)&amp;sig=(removed)", page, StringComparison.Ordinal);
        Assert.Contains("the service said: key (removed) &amp; more", page, StringComparison.Ordinal);
        Assert.Contains("403 for https://(removed)@host/t?sig=(removed) ((removed))", page, StringComparison.Ordinal);
        Assert.DoesNotContain(Key, page, StringComparison.Ordinal);
        Assert.DoesNotContain("hunter22", page, StringComparison.Ordinal);
        Assert.DoesNotContain("aW5wdXQ", page, StringComparison.Ordinal);
    }

    [Fact]
    public void Without_request_units_the_fourth_chart_shows_entities_per_second()
    {
        var html = HtmlReport.Render(Report(requestCharge: null));

        Assert.Contains("Entities per second", html, StringComparison.Ordinal);
        Assert.DoesNotContain("paced at", html, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("column 'n': 'forty' is not a valid Int32 in the invariant culture", "column 'n': '…' is not a valid Int32 in the invariant culture")]
    [InlineData("has 3 fields, the header has 5", "has … fields, the header has …")]
    [InlineData("malformed quoting: a quote opened on line 18 never closes", "malformed quoting: a quote opened on line … never closes")]
    [InlineData("partition key is empty: column 'region' is empty", "partition key is empty: column 'region' is empty")]
    public void Rejects_are_grouped_by_their_reason_with_the_rows_own_values_masked(string reason, string kind) =>
        Assert.Equal(kind, RejectReasons.KindOf(reason));

    [Fact]
    public void Reject_reasons_keep_their_first_rows_and_count_the_rest()
    {
        var reasons = new RejectReasons();
        for (var line = 2; line < 12; line++)
        {
            reasons.Add(line, $"line {line}", $"column 'n': 'x{line}' is not a valid Int32", $"row {line}\n");
        }

        reasons.Add(20, "line 20", "has 3 fields, the header has 5", "a,b,c");

        var summary = reasons.Summary();
        Assert.Equal([10L, 1L], summary.Select(reason => reason.Rows));
        Assert.Equal([2L, 3L, 4L], summary[0].Examples.Select(example => example.Line));
        Assert.Equal("row 2", summary[0].Examples[0].Record);
    }

    private static bool IsBar(XElement rect) => (string?)rect.Attribute("class") == "bar";

    private static XName Name(string local) => XName.Get(local, "http://www.w3.org/2000/svg");

    /// <summary>The SVG charts of the page wrapped in one element, to be read as XML.</summary>
    private static string Svg(string html) => "<charts>" + string.Concat(SvgElement().Matches(html).Select(match => match.Value)) + "</charts>";

    [GeneratedRegex("<svg .*?</svg>", RegexOptions.Singleline)]
    private static partial Regex SvgElement();

    // Anything the browser would fetch: a src or href, or a CSS url(), naming a scheme or a network path.
    [GeneratedRegex(@"(src|href)\s*=|url\(|@import", RegexOptions.IgnoreCase)]
    private static partial Regex ExternalReference();
}
