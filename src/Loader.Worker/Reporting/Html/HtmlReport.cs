using System.Globalization;
using System.Text;
using Loader.Worker.Outputs;

namespace Loader.Worker.Reporting.Html;

/// <summary>
/// The report as one self-contained HTML page for a person: outcome and exit code, the reconciliation, charts over
/// time, the latency histogram with its percentiles, rejects by reason with their first rows, failures, and the
/// settings (secrets already removed in the report). No script and nothing fetched: the styles are inline, the
/// charts inline SVG, and a Content-Security-Policy forbids any other source, so it opens the same from a blob, a
/// disk or an e-mail attachment. Everything in it comes from the <see cref="LoadReport"/>, so it says what the JSON says.
/// </summary>
internal static class HtmlReport
{
    /// <summary>The charts every report has, by their <c>data-chart</c> name.</summary>
    public static readonly IReadOnlyList<string> TimelineCharts = ["rows-per-second", "batches-in-flight", "throttled-per-second", "units-per-second"];

    public const string LatencyChart = "latency-histogram";

    /// <summary>The distribution of rows per partition, in the partitions view.</summary>
    public const string PartitionsChart = "rows-per-partition";

    /// <summary>Where the load's time went, beside the verdict.</summary>
    public const string BreakdownChart = "time-breakdown";

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    public static Task WriteAsync(LoadReport report, OutputFile file, CancellationToken cancellationToken) =>
        file.WriteAsync(BinaryData.FromString(Render(file.Redacted(report, ReportWriter.JsonOptions))), "text/html; charset=utf-8", cancellationToken);

    public static string Render(LoadReport report)
    {
        var html = new StringBuilder(64 * 1024);
        var verb = report.DryRun ? "Dry run" : "Load";
        Head(html, $"{verb} {report.Outcome}: {report.Input} → {report.Backend} {report.Target}");

        Header(html, report, verb);
        Figures(html, report);
        Timeline(html, report);
        Latency(html, report);
        Rejects(html, report);
        Failures(html, report);
        Partitions(html, report);
        Settings(html, report.Settings);
        Verdict(html, report);
        html.Append(s_invariant, $"<footer>Written by the bulk loader {E(LoaderVersion.Informational)} at {report.FinishedAt.UtcDateTime:yyyy-MM-dd HH:mm:ss} UTC. The same numbers are in the JSON report{(report.RejectsPath is null ? "" : ", the rejected rows in " + E(report.RejectsPath))}.</footer>");
        html.Append("</body></html>\n");
        return html.ToString();
    }

    /// <summary>
    /// The page's start, up to its body: no script and nothing fetched (a Content-Security-Policy forbids any other
    /// source), the styles inline. Every report page starts so, the load's and verify's.
    /// </summary>
    internal static void Head(StringBuilder html, string title)
    {
        html.Append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
        html.Append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">");
        html.Append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        html.Append(s_invariant, $"<meta name=\"generator\" content=\"bulk loader {E(LoaderVersion.Informational)}\">");
        html.Append(s_invariant, $"<title>{E(title)}</title>");
        html.Append("<style>").Append(Styles).Append("</style></head><body>");
    }

    private static void Header(StringBuilder html, LoadReport report, string verb)
    {
        var tone = report.Completed ? "ok" : "bad";
        html.Append(s_invariant, $"<header><h1>{verb} <span class=\"outcome {tone}\" id=\"outcome\">{E(report.Outcome.ToString())}</span> <span class=\"exit\" id=\"exit-code\">exit code {report.ExitCode}</span></h1>");
        html.Append(s_invariant, $"<p class=\"what\">{E(report.Input)}{(report.InputBytes is { } bytes ? $" ({Bytes(bytes)})" : "")} → {E(report.Backend)} {E(report.Target)}</p>");
        if (report.Message is { } message)
        {
            html.Append(s_invariant, $"<p class=\"message\">{E(message)}</p>");
        }

        html.Append(s_invariant, $"<p class=\"when\">{report.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm:ss} – {report.FinishedAt.UtcDateTime:HH:mm:ss} UTC, {report.ElapsedSeconds:N1} s of loading</p>");
        var parts = new List<string> { $"written {report.RowsWritten:N0}", $"rejected {report.RowsRejected:N0}", $"superseded {report.RowsSuperseded:N0}", $"failed {report.RowsFailed:N0}" };
        if (report.RowsAlreadyWritten > 0)
        {
            parts.Add($"already written {report.RowsAlreadyWritten:N0}");
        }

        if (report.RowsAlreadyAbsent > 0)
        {
            parts.Add($"already absent {report.RowsAlreadyAbsent:N0}");
        }

        html.Append(s_invariant, $"<p class=\"reconciliation {(report.Reconciled ? "ok" : "bad")}\" id=\"reconciliation\">rows read {report.RowsRead:N0} = {string.Join(" + ", parts)}: {(report.Reconciled ? "reconciled" : "NOT reconciled")}</p>");
        if (report.ResumedAtRecord is { } resumed)
        {
            html.Append(s_invariant, $"<p>Resumed at record {resumed:N0} from the checkpoint; {report.RowsSkipped:N0} rows were done before.</p>");
        }

        html.Append("</header>");
    }

    private static void Figures(StringBuilder html, LoadReport report)
    {
        var latency = report.LatencyMs;
        var figures = new List<(string Label, string Value)>
        {
            ("rows/s", report.RowsPerSecond.ToString("N0", s_invariant)),
            ("batches", $"{report.Batches:N0} in {report.Requests:N0} requests"),
            ("throttled", $"{report.Throttled:N0} ({report.ThrottledShare.ToString("P1", s_invariant)})"),
            ("throttled by limit", $"3200 RU budget {report.ThrottledBy.RequestUnitBudget:N0} · 3212 throughput bucket {report.ThrottledBy.ThroughputBucket:N0} · other {report.ThrottledBy.Other:N0}"),
            ("retries", $"{report.Retries:N0}, waited {report.RetryWaitSeconds:N1} s"),
            ("latency", $"p50 {latency.P50:N1} · p95 {latency.P95:N1} · p99 {latency.P99:N1} ms"),
            ("concurrency", $"{report.Concurrency.Mode}: {report.Concurrency.Min}–{report.Concurrency.Max}, avg {report.Concurrency.Average:N1}"),
            ("request units", report.RequestCharge is { } charge ? $"{charge:N0} RU, {report.RequestUnitsPerRow:N2} RU/row, {report.RequestUnitsPerSecond:N0} RU/s" : "none reported"),
            ("lines read", report.LinesRead is { } lines ? $"{lines:N0} ({report.LinesRejected:N0} in rejected rows)" : "–"),
            ("peak memory", $"{report.PeakMemoryMiB:N0} MiB"),
        };
        if (report.Merge is { } merge)
        {
            figures.Add(("merged by", $"{merge.Method}: {merge.PatchOperations:N0} patches, {merge.ReadReplaceOperations:N0} read-then-replaces"));
        }

        if (report.Verdict is { } verdict)
        {
            figures.Add(("limited by (see the end)", Words(verdict.Kind.ToString())));
        }

        if (report.Cosmos is { } cosmos)
        {
            figures.Add(("priority", $"{cosmos.PriorityLevel ?? "account default"}, throughput bucket {cosmos.ThroughputBucket?.ToString(s_invariant) ?? "none"}"));
        }

        html.Append("<section class=\"figures\">");
        foreach (var (label, value) in figures)
        {
            html.Append(s_invariant, $"<div><span class=\"label\">{E(label)}</span><span class=\"value\">{E(value)}</span></div>");
        }

        html.Append("</section>");
    }

    private static void Timeline(StringBuilder html, LoadReport report)
    {
        var samples = report.Timeline;
        var seconds = samples.Select(sample => sample.Seconds).ToArray();
        var rowsPerSecond = Rate(samples, sample => sample.RowsWritten);
        var throttledPerSecond = Rate(samples, sample => sample.Throttled);
        html.Append(s_invariant, $"<section><h2>Over time</h2><p class=\"note\">One point per progress interval ({samples.Count:N0} in all); rates are over the interval before each point.</p><div class=\"charts\">");
        html.Append(SvgChart.Line(TimelineCharts[0], "Rows written per second", "rows/s", seconds, new("rows written/s", "rows", rowsPerSecond)));
        html.Append(SvgChart.Line(TimelineCharts[1], "Batches in flight", "batches", seconds,
            new("in flight", "inflight", [.. samples.Select(sample => (double)sample.InFlight)]),
            new("allowed", "allowed", [.. samples.Select(sample => (double)sample.Concurrency)])));
        html.Append(SvgChart.Line(TimelineCharts[2], "Throttled answers per second (429, 503)", "throttled/s", seconds, new("throttled/s", "throttled", throttledPerSecond)));
        if (report.RequestCharge is not null)
        {
            var paced = samples.Any(sample => sample.PacedRequestUnitsPerSecond is not null)
                ? new SvgChart.Series("paced at", "paced", [.. samples.Select(sample => sample.PacedRequestUnitsPerSecond ?? 0)])
                : null;
            html.Append(SvgChart.Line(TimelineCharts[3], "Request units per second", "RU/s", seconds, new("RU/s", "units", Rate(samples, sample => sample.RequestCharge)), paced));
        }
        else
        {
            html.Append(SvgChart.Line(TimelineCharts[3], "Entities per second (the service reports no request units)", "entities/s", seconds, new("entities/s", "units", rowsPerSecond)));
        }

        html.Append("</div></section>");
    }

    /// <summary>Per timeline entry, how fast a running total grew over the interval before it (from zero at the start).</summary>
    internal static double[] Rate(IReadOnlyList<ProgressSample> samples, Func<ProgressSample, double> total)
    {
        var rates = new double[samples.Count];
        double previousTime = 0, previousTotal = 0;
        for (var i = 0; i < samples.Count; i++)
        {
            var elapsed = samples[i].Seconds - previousTime;
            var value = total(samples[i]);
            rates[i] = elapsed > 0 ? Math.Max(0, (value - previousTotal) / elapsed) : (i > 0 ? rates[i - 1] : 0);
            previousTime = samples[i].Seconds;
            previousTotal = value;
        }

        return rates;
    }

    private static void Latency(StringBuilder html, LoadReport report)
    {
        var latency = report.LatencyMs;
        html.Append(s_invariant, $"<section><h2>Request latency</h2><p class=\"note\">{report.Requests:N0} requests; mean {latency.Mean:N1} ms, max {latency.Max:N1} ms.</p>");
        html.Append("<div class=\"charts\">");
        html.Append(SvgChart.Histogram(LatencyChart, "Request latency histogram", report.LatencyHistogram, [("p50", latency.P50), ("p95", latency.P95), ("p99", latency.P99)]));
        html.Append("</div>");
        html.Append("</section>");
    }

    private static void Rejects(StringBuilder html, LoadReport report)
    {
        html.Append(s_invariant, $"<section id=\"rejects\"><h2>Rejected rows: {report.RowsRejected:N0}</h2>");
        if (report.RejectReasons.Count == 0)
        {
            html.Append("<p>None.</p></section>");
            return;
        }

        html.Append(s_invariant, $"<p class=\"note\">By reason (the row's own values shown as …), with the first {RejectReasons.ExamplesPerReason} rows of each{(report.RejectsPath is null ? "" : "; every one is in " + E(report.RejectsPath))}.</p>");
        html.Append("<table class=\"rejects\"><thead><tr><th>reason</th><th class=\"n\">rows</th><th>first rows: where, reason, record</th></tr></thead><tbody>");
        foreach (var reason in report.RejectReasons)
        {
            html.Append(s_invariant, $"<tr class=\"reject-reason\"><td>{E(reason.Reason)}</td><td class=\"n\">{reason.Rows:N0}</td><td><ul>");
            foreach (var example in reason.Examples)
            {
                var inputLine = example.InputLine is { } read ? string.Create(s_invariant, $" (line {read:N0} of this input)") : "";
                html.Append(s_invariant, $"<li><span class=\"line\">{E(example.Place)}{inputLine}</span> {E(example.Reason)}<br><code>{E(example.Record)}</code></li>");
            }

            html.Append("</ul></td></tr>");
        }

        html.Append("</tbody></table></section>");
    }

    private static void Failures(StringBuilder html, LoadReport report)
    {
        if (report.Errors.Count == 0)
        {
            return;
        }

        html.Append(s_invariant, $"<section id=\"failures\"><h2>Failed rows: {report.RowsFailed:N0}</h2><table><thead><tr><th>error</th><th class=\"n\">rows</th></tr></thead><tbody>");
        foreach (var error in report.Errors)
        {
            html.Append(s_invariant, $"<tr><td>{E(error.Error)}</td><td class=\"n\">{error.Rows:N0}</td></tr>");
        }

        html.Append("</tbody></table></section>");
    }

    private static void Partitions(StringBuilder html, LoadReport report)
    {
        if (report.Partitions is not { } partitions)
        {
            return;
        }

        var about = partitions.Estimated ? "about " : "";
        html.Append(s_invariant, $"<section id=\"partitions\"><h2>Partitions: {about}{partitions.Count:N0}</h2>");
        var rows = partitions.RowsPerPartition.Sum(bucket => bucket.Rows);
        html.Append(s_invariant, $"<p class=\"note\">Rows per partition key on a log scale (each bucket a doubling of the one before){(partitions.Estimated ? ", scaled up from a uniform sample of the keys" : "")}, beside the share of all rows those partitions hold: a short bar far right with a tall share beside it is skew, few keys holding many rows, whose batches go one after another.</p>");
        html.Append("<div class=\"charts\">");
        html.Append(SvgChart.Distribution(PartitionsChart, "Partitions by their rows", "rows per partition (log scale)", "partitions", "share of the rows",
            [.. partitions.RowsPerPartition.Select(bucket => new SvgChart.Bucket(
                bucket.FromRows,
                bucket.Partitions,
                rows > 0 ? (double)bucket.Rows / rows : 0,
                string.Create(s_invariant, $"{bucket.FromRows:N0}–{bucket.ToRows:N0} rows: {about}{bucket.Partitions:N0} partitions, {bucket.Rows:N0} rows ({(rows > 0 ? 100.0 * bucket.Rows / rows : 0):0.#}% of all)")))]));
        html.Append("</div>");
        html.Append(s_invariant, $"<p class=\"note\">The {partitions.Top.Count:N0} with the most rows; in flight is the time their requests were at the service, backing off their waits before retries.</p>");
        html.Append("<table class=\"partitions\"><thead><tr><th>partition key</th><th class=\"n\">rows</th><th class=\"n\">batches</th><th class=\"n\">in flight</th><th class=\"n\">backing off</th><th class=\"n\">throttled</th><th class=\"n\">rejected</th></tr></thead><tbody>");
        foreach (var partition in partitions.Top)
        {
            var rowsText = partition.RowsError > 0 ? string.Create(s_invariant, $"{partition.Rows:N0} (up to {partition.RowsError:N0} fewer)") : partition.Rows.ToString("N0", s_invariant);
            html.Append(s_invariant, $"<tr class=\"partition\"><td><code>{E(partition.PartitionKey)}</code></td><td class=\"n\">{rowsText}</td><td class=\"n\">{partition.Batches:N0}</td><td class=\"n\">{partition.InFlightSeconds:N1} s</td><td class=\"n\">{partition.BackoffSeconds:N1} s</td><td class=\"n\">{partition.Throttled:N0}</td><td class=\"n\">{partition.Rejected:N0}</td></tr>");
        }

        html.Append("</tbody></table></section>");
    }

    private static void Verdict(StringBuilder html, LoadReport report)
    {
        if (report.Verdict is not { } verdict)
        {
            return;
        }

        html.Append(s_invariant, $"<section id=\"verdict\"><h2>What limited this load: {E(Words(verdict.Kind.ToString()))}</h2>");
        html.Append(s_invariant, $"<p class=\"verdict{(verdict.Decisive ? "" : " weak")}\" id=\"verdict-sentence\" data-kind=\"{E(verdict.Kind.ToString())}\">{E(verdict.Sentence)}</p>");
        if (verdict.Evidence.Count > 0)
        {
            html.Append("<ul class=\"evidence\">");
            foreach (var evidence in verdict.Evidence)
            {
                html.Append(s_invariant, $"<li data-evidence=\"{E(evidence.Name)}\">{E(evidence.Says)}</li>");
            }

            html.Append("</ul>");
        }

        if (report.TimeBreakdown is { } time)
        {
            var elapsed = Math.Max(time.ElapsedSeconds, 1e-9);
            var parsing = Math.Max(0, time.ReadingSeconds - time.InputSeconds - time.DecompressingSeconds);
            SvgChart.Part Part(string name, string label, double seconds) =>
                new(name, label, seconds / elapsed, string.Create(s_invariant, $"{seconds:N1} s ({Math.Round(100 * seconds / elapsed):0}%)"));
            html.Append(s_invariant, $"<p class=\"note\">Where the {time.ElapsedSeconds:N1} s went. The stages run side by side, so the bars overlap; each is a share of the load's time. The process kept {time.CoresUsed:N2} of its {time.Cores} cores busy ({time.CpuSeconds:N1} s of CPU).</p>");
            html.Append("<div class=\"charts\">");
            html.Append(SvgChart.Shares(BreakdownChart, "Where the load's time went",
            [
                Part("input", "reading: waiting for the input", time.InputSeconds),
                Part("decompressing", "reading: decompressing", time.DecompressingSeconds),
                Part("parsing", "reading: parsing and mapping", parsing),
                Part("service", "waiting for the service", time.ServiceSeconds),
                Part("throttled", "throttled back-off", time.ThrottledBackoffSeconds),
                Part("faults", "back-off after faults", time.FaultBackoffSeconds),
                Part("paced", "waiting for the pace", time.PacedSeconds),
                Part("checkpointing", "checkpointing", time.CheckpointingSeconds),
            ]));
            html.Append("</div>");
        }

        html.Append("</section>");
    }

    /// <summary>A kind's name as words: <c>ServiceLatency</c> as "service latency", <c>LoaderCpu</c> as "loader CPU".</summary>
    internal static string Words(string name) =>
        string.Concat(name.Select((letter, i) => i > 0 && char.IsUpper(letter) ? " " + char.ToLowerInvariant(letter) : i == 0 ? char.ToLowerInvariant(letter).ToString() : letter.ToString()))
            .Replace("loader cpu", "loader CPU", StringComparison.Ordinal);

    /// <summary>The settings a run ran with (secrets already removed), as a table.</summary>
    internal static void Settings(StringBuilder html, IReadOnlyDictionary<string, string> settings)
    {
        html.Append("<section id=\"settings\"><h2>Settings</h2><p class=\"note\">As the load ran with them; connection strings and keys are not shown, and URLs lose their query (a signature).</p><table class=\"settings\"><tbody>");
        foreach (var (key, value) in settings)
        {
            html.Append(s_invariant, $"<tr><th>{E(key)}</th><td>{(value.Length == 0 ? "<span class=\"none\">(none)</span>" : E(value))}</td></tr>");
        }

        html.Append("</tbody></table></section>");
    }

    private static string Bytes(long bytes) => bytes switch
    {
        >= 1L << 30 => (bytes / (double)(1L << 30)).ToString("0.0 GiB", s_invariant),
        >= 1L << 20 => (bytes / (double)(1L << 20)).ToString("0.0 MiB", s_invariant),
        >= 1L << 10 => (bytes / (double)(1L << 10)).ToString("0.0 KiB", s_invariant),
        _ => bytes.ToString("N0", s_invariant) + " bytes",
    };

    private static string E(string text) => SvgChart.Encode(text);

    /// <summary>The styles of every report page, the load's and verify's.</summary>
    internal const string Styles = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2430;margin:24px auto;max-width:1360px;padding:0 16px}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 6px}
        .outcome{padding:1px 8px;border-radius:4px;color:#fff}.outcome.ok{background:#1f7a3a}.outcome.bad{background:#b3261e}
        .exit{font-size:14px;color:#555;font-weight:normal}.what{font-weight:600;margin:2px 0}.message{color:#b3261e}
        .when,.note{color:#555;margin:2px 0}.reconciliation{font-family:ui-monospace,Menlo,Consolas,monospace;padding:6px 8px;border-radius:4px}
        .reconciliation.ok{background:#e8f5eb}.reconciliation.bad{background:#fde8e6}
        .figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:8px;margin-top:16px}
        .figures div{border:1px solid #d8dde6;border-radius:6px;padding:6px 10px}.label{display:block;color:#555;font-size:12px}.value{font-weight:600}
        .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:12px}
        svg{width:100%;height:auto;border:1px solid #d8dde6;border-radius:6px;background:#fff}
        svg .plot{fill:#fafbfd;stroke:#c4cad4}svg .grid{stroke:#e6e9ef}svg .tick,svg .legend,svg .axis-label,svg .marker-label,svg .empty{font-size:11px;fill:#555}
        svg .series{fill:none;stroke-width:1.8}svg .dot{stroke:none}svg circle.rows{fill:#2563eb}svg circle.inflight{fill:#7c3aed}svg circle.throttled{fill:#dc2626}svg circle.units{fill:#0d9488}svg .reference{stroke-dasharray:5 4;stroke-width:1.4}
        svg .rows{stroke:#2563eb}svg .inflight{stroke:#7c3aed}svg .allowed{stroke:#a1a1aa}svg .throttled{stroke:#dc2626}svg .units{stroke:#0d9488}svg .paced{stroke:#a1a1aa}
        svg .bar{fill:#60a5fa}svg .share,svg .swatch-share{fill:#f59e0b}svg .swatch-count{fill:#60a5fa}svg .marker{stroke:#b45309;stroke-width:1.5}svg .marker-label{fill:#b45309}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;border-bottom:1px solid #e6e9ef;padding:4px 8px}
        td.n,th.n{text-align:right;white-space:nowrap}.settings th{font-weight:normal;font-family:ui-monospace,Menlo,Consolas,monospace;white-space:nowrap;width:1%}
        .rejects ul{margin:0;padding-left:18px}code{background:#f3f4f6;padding:0 3px;white-space:pre-wrap;word-break:break-all}.line{color:#555}.none{color:#999}
        .verdict{font-size:15px;font-weight:600;padding:8px 10px;border-left:4px solid #2563eb;background:#eef4ff;border-radius:4px}.verdict.weak{border-left-color:#a1a1aa;background:#f4f4f5}
        .evidence{margin:6px 0 10px;padding-left:20px;color:#333}
        svg .bar.input{fill:#f59e0b}svg .bar.decompressing{fill:#fbbf24}svg .bar.parsing{fill:#60a5fa}svg .bar.service{fill:#0d9488}svg .bar.throttled{fill:#dc2626}svg .bar.faults{fill:#9333ea}svg .bar.paced{fill:#a1a1aa}svg .bar.checkpointing{fill:#475569}
        footer{margin-top:32px;color:#777;font-size:12px}
        """;
}
