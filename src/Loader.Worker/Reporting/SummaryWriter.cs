using System.Globalization;
using System.Text;
using Loader.Worker.Inputs;

namespace Loader.Worker.Reporting;

/// <summary>The human summary printed at the end of a load.</summary>
internal static class SummaryWriter
{
    public static string Format(LoadReport report)
    {
        var c = CultureInfo.InvariantCulture;
        var text = new StringBuilder();
        var verb = report.DryRun ? "Dry run" : "Load";
        text.AppendLine(c, $"{verb} {report.Outcome.ToString().ToUpperInvariant()}: {report.Input} -> {report.Backend} {report.Target}");
        if (report.Message is { } message)
        {
            text.AppendLine(c, $"  {message}");
        }

        var written = report.DryRun ? "would write" : "written";
        text.AppendLine(c, $"  rows read        {report.RowsRead,12:N0}");
        text.AppendLine(c, $"  rows {written,-11} {report.RowsWritten,12:N0}   {report.RowsPerSecond,10:N0} rows/s over {report.ElapsedSeconds:N1} s");
        text.AppendLine(c, $"  rows rejected    {report.RowsRejected,12:N0}{(report.RejectsPath is null ? "" : "   -> " + report.RejectsPath)}");
        text.AppendLine(c, $"  rows superseded  {report.RowsSuperseded,12:N0}   (a later row with the same keys won)");
        text.AppendLine(c, $"  rows failed      {report.RowsFailed,12:N0}");
        if (report.RowsAlreadyWritten > 0)
        {
            text.AppendLine(c, $"  already written  {report.RowsAlreadyWritten,12:N0}   (stored by the earlier run before it stopped)");
        }

        if (report.RowsAlreadyAbsent > 0)
        {
            text.AppendLine(c, $"  already absent   {report.RowsAlreadyAbsent,12:N0}   (Delete: the store held no entity with the row's keys)");
        }

        if (report.ResumedAtRecord is { } resumed)
        {
            text.AppendLine(c, $"  rows skipped     {report.RowsSkipped,12:N0}   resumed at record {resumed:N0} from the checkpoint");
        }

        var identity = "written + rejected + superseded + failed"
            + (report.RowsAlreadyWritten > 0 ? " + already written" : "")
            + (report.RowsAlreadyAbsent > 0 ? " + already absent" : "");
        text.AppendLine(c, $"  reconciled       {(report.Reconciled ? "yes" : "NO")}: read = {identity}");
        // A Parquet input has rows, not lines: its rows read say it all.
        if (report.LinesRead is { } lines && report.InputFormat != InputFormat.Parquet)
        {
            var counted = report.InputFormat == InputFormat.JsonLines ? "blank lines included" : "header and blank lines included";
            text.AppendLine(c, $"  lines read       {lines,12:N0}   {counted}; {report.LinesRejected:N0} of them in the {report.RowsRejected:N0} rejected rows");
        }

        text.AppendLine(c, $"  batches          {report.Batches,12:N0}   in {report.Requests:N0} requests");
        var latency = report.LatencyMs;
        text.AppendLine(c, $"  latency ms       p50 {latency.P50:N1}  p90 {latency.P90:N1}  p95 {latency.P95:N1}  p99 {latency.P99:N1}  max {latency.Max:N1}");
        text.AppendLine(c, $"  throttled        {report.Throttled,12:N0}   {report.ThrottledShare:P1} of answers; retries {report.Retries:N0}, waited {report.RetryWaitSeconds:N1} s");
        if (report.ThrottledBy is { } by && (by.RequestUnitBudget > 0 || by.ThroughputBucket > 0))
        {
            text.AppendLine(c, $"    by limit                     3200 RU budget {by.RequestUnitBudget:N0}, 3212 throughput bucket {by.ThroughputBucket:N0}, other {by.Other:N0}");
        }

        if (report.Cosmos is { } cosmos)
        {
            text.AppendLine(c, $"  priority         {cosmos.PriorityLevel ?? "default",12}   throughput bucket {cosmos.ThroughputBucket?.ToString(c) ?? "none"}");
        }
        var concurrency = report.Concurrency;
        text.AppendLine(c, $"  concurrency      {concurrency.Mode,12}   min {concurrency.Min}, avg {concurrency.Average:N1}, max {concurrency.Max}, final {concurrency.Final} batches in flight");
        if (report.PacedRequestUnitsPerSecond is { } paced)
        {
            text.AppendLine(c, $"  paced at         {paced,12:N0}   RU/s (learned from 429s, or Loader:MaxRequestUnitsPerSecond)");
        }
        if (report.RequestCharge is { } charge)
        {
            text.AppendLine(c, $"  request units    {charge,12:N1}   {report.RequestUnitsPerRow:N2} RU/row, {report.RequestUnitsPerSecond:N0} RU/s");
        }
        else
        {
            text.AppendLine("  request units             -   (the service reports no request charge)");
        }
        if (report.Merge is { } merge)
        {
            text.AppendLine(c, $"  merged by        {merge.Method,12}   {merge.PatchOperations:N0} patches, {merge.ReadReplaceOperations:N0} read-then-replaces sent");
        }

        text.AppendLine(c, $"  peak memory      {report.PeakMemoryMiB,12:N0} MiB");
        if (report.HtmlReportPath is { } html)
        {
            text.AppendLine(c, $"  html report      {html}");
        }

        foreach (var error in report.Errors.Take(5))
        {
            text.AppendLine(c, $"  failed {error.Rows:N0} rows: {error.Error}");
        }

        if (report.TimeBreakdown is { } time)
        {
            var input = time.DecompressingSeconds > 0 ? $"input {time.InputSeconds:N1} s, decompressing {time.DecompressingSeconds:N1} s" : $"input {time.InputSeconds:N1} s";
            text.AppendLine(c, $"  time             reading {time.ReadingSeconds:N1} s ({input}), service {time.ServiceSeconds:N1} s, throttled back-off {time.ThrottledBackoffSeconds:N1} s, paced {time.PacedSeconds:N1} s, checkpoints {time.CheckpointingSeconds:N1} s; {time.CoresUsed:N2} of {time.Cores} cores");
        }

        if (report.Verdict is { } verdict)
        {
            text.AppendLine(c, $"  limited by       {verdict.Sentence}");
        }

        return text.ToString();
    }
}
