using System.Globalization;
using System.Text;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Html;

namespace Loader.Worker.Verify;

/// <summary>
/// A verify's report as one self-contained page, as the load's is (<see cref="HtmlReport"/>: its head, styles and
/// settings table): the outcome and exit code, the rows by what became of them, and the first findings of each kind
/// with the key, the line and, for a difference, the property and both values.
/// </summary>
internal static class VerifyHtml
{
    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    public static Task WriteAsync(VerifyReport report, OutputFile file, CancellationToken cancellationToken) =>
        file.WriteAsync(BinaryData.FromString(Render(file.Redacted(report, ReportWriter.JsonOptions))), "text/html; charset=utf-8", cancellationToken);

    public static string Render(VerifyReport report)
    {
        var html = new StringBuilder(32 * 1024);
        HtmlReport.Head(html, $"Verify {report.Outcome}: {report.Input} → {report.Backend} {report.Target}");
        var tone = report.Outcome == ReportOutcome.Completed ? "ok" : "bad";
        html.Append(s_invariant, $"<header><h1>Verify <span class=\"outcome {tone}\" id=\"outcome\">{E(report.Outcome.ToString())}</span> <span class=\"exit\" id=\"exit-code\">exit code {report.ExitCode}</span></h1>");
        html.Append(s_invariant, $"<p class=\"what\">{E(report.Input)} → {E(report.Backend)} {E(report.Target)}, write mode {report.WriteMode}{(report.Shards is { } shards ? $", {shards} shards" : "")}</p>");
        if (report.Message is { } message)
        {
            html.Append(s_invariant, $"<p class=\"message\">{E(message)}</p>");
        }

        html.Append(s_invariant, $"<p class=\"when\">{report.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm:ss} – {report.FinishedAt.UtcDateTime:HH:mm:ss} UTC, {report.ElapsedSeconds:N1} s</p>");
        var parts = $"matching {report.RowsMatching:N0} + superseded {report.RowsSuperseded:N0} + rejected {report.RowsRejected:N0} + missing {report.RowsMissing:N0} + different {report.RowsDifferent:N0} + duplicates not won {report.RowsDuplicateNotWon:N0} + not deleted {report.RowsNotDeleted:N0} + unchecked {report.RowsUnchecked:N0}";
        html.Append(s_invariant, $"<p class=\"reconciliation {(report.Reconciled ? "ok" : "bad")}\" id=\"reconciliation\">rows read {report.RowsRead:N0} = {parts}</p></header>");

        var figures = new List<(string Label, string Value)>
        {
            ("rows/s", report.RowsPerSecond.ToString("N0", s_invariant)),
            ("extra entities", report.ExtraEntities is { } extra ? extra.ToString("N0", s_invariant) : "not counted (--extra)"),
            ("target read", $"{report.EntitiesRead:N0} entities of {report.Partitions:N0} partitions ({report.PartitionPasses:N0} passes)"),
            ("requests", $"{report.Requests:N0}, {report.Throttled:N0} throttled, {report.Retries:N0} retries"),
            ("latency", $"p50 {report.LatencyMs.P50:N1} · p95 {report.LatencyMs.P95:N1} · p99 {report.LatencyMs.P99:N1} ms"),
            ("request units", report.RequestCharge is { } charge ? $"{charge:N0} RU" : "none reported"),
            ("sorted runs on disk", report.SpilledRuns.ToString("N0", s_invariant)),
            ("peak memory", $"{report.PeakMemoryMiB:N0} MiB"),
        };
        html.Append("<section class=\"figures\">");
        foreach (var (label, value) in figures)
        {
            html.Append(s_invariant, $"<div><span class=\"label\">{E(label)}</span><span class=\"value\">{E(value)}</span></div>");
        }

        html.Append("</section>");
        foreach (var (kind, examples) in report.Examples.ByKind())
        {
            Findings(html, kind, examples);
        }

        HtmlReport.Settings(html, report.Settings);
        html.Append(s_invariant, $"<footer>Written by the bulk loader {E(LoaderVersion.Informational)} at {report.FinishedAt.UtcDateTime:yyyy-MM-dd HH:mm:ss} UTC. The same numbers are in the JSON report.</footer>");
        html.Append("</body></html>\n");
        return html.ToString();
    }

    private static void Findings(StringBuilder html, FindingKind kind, IReadOnlyList<VerifyExample> examples)
    {
        var label = VerifySummary.Label(kind);
        html.Append(s_invariant, $"<section id=\"{kind.ToString().ToLowerInvariant()}\"><h2>{E(char.ToUpperInvariant(label[0]) + label[1..])}: first {examples.Count:N0}</h2>");
        if (examples.Count == 0)
        {
            html.Append("<p>None.</p></section>");
            return;
        }

        html.Append("<table><thead><tr><th>partition key</th><th>row key</th><th class=\"n\">where</th><th>property</th><th>expected</th><th>stored</th></tr></thead><tbody>");
        foreach (var example in examples)
        {
            var line = example.Place ?? (example.Line is { } number ? number.ToString("N0", s_invariant) + (example.File is { } file ? $" ({file} line {example.FileLine:N0})" : "") : "");
            var stored = example.StoredWhere(s_invariant) is { } storedRow ? $"{storedRow}'s row" + (example.Stored is { } value ? ": " + value : "") : example.Stored ?? "";
            html.Append(s_invariant, $"<tr class=\"finding\"><td><code>{E(example.PartitionKey)}</code></td><td><code>{E(example.RowKey)}</code></td><td class=\"n\">{E(line)}</td><td>{E(example.Property ?? "")}</td><td><code>{E(example.Expected ?? "")}</code></td><td><code>{E(stored)}</code></td></tr>");
        }

        html.Append("</tbody></table></section>");
    }

    private static string E(string text) => SvgChart.Encode(text);
}
