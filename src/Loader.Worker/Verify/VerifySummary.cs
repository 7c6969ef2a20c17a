using System.Globalization;
using System.Text;

namespace Loader.Worker.Verify;

/// <summary>The human summary printed at the end of a verify: the counts, then the first findings of each kind.</summary>
internal static class VerifySummary
{
    /// <summary>Findings of each kind the summary shows; the reports hold more.</summary>
    private const int Shown = 5;

    public static string Format(VerifyReport report, string? reportPath)
    {
        var c = CultureInfo.InvariantCulture;
        var text = new StringBuilder();
        var word = report.Outcome switch
        {
            Reporting.ReportOutcome.Completed => "MATCHES",
            Reporting.ReportOutcome.TargetDiffers => "DIFFERS",
            var other => other.ToString().ToUpperInvariant(),
        };
        text.AppendLine(c, $"Verify {word}: {report.Input} -> {report.Backend} {report.Target} ({report.WriteMode}{(report.Shards is { } shards ? $", {shards} shards" : "")})");
        if (report.Message is { } message)
        {
            text.AppendLine(c, $"  {message}");
        }

        text.AppendLine(c, $"  rows read            {report.RowsRead,12:N0}   {report.RowsPerSecond,10:N0} rows/s over {report.ElapsedSeconds:N1} s");
        text.AppendLine(c, $"  rows matching        {report.RowsMatching,12:N0}   (stored as the load writes them{(report.WriteMode == Abstractions.WriteMode.Delete ? ": absent" : "")})");
        text.AppendLine(c, $"  rows superseded      {report.RowsSuperseded,12:N0}   (a repeated key's other rows)");
        text.AppendLine(c, $"  rows rejected        {report.RowsRejected,12:N0}   (in the rejects file, or not mappable: expected absent)");
        text.AppendLine(c, $"  rows missing         {report.RowsMissing,12:N0}");
        text.AppendLine(c, $"  rows different       {report.RowsDifferent,12:N0}");
        text.AppendLine(c, $"  duplicates not won   {report.RowsDuplicateNotWon,12:N0}   (the store holds another row of a repeated key)");
        if (report.WriteMode == Abstractions.WriteMode.Delete)
        {
            text.AppendLine(c, $"  rows not deleted     {report.RowsNotDeleted,12:N0}");
        }

        text.AppendLine(report.ExtraEntities is { } extra
            ? string.Create(c, $"  extra entities       {extra,12:N0}   (in the input's partitions, named by no row)")
            : "  extra entities                  -   (not counted; --extra counts them)");
        if (report.RowsUnchecked > 0)
        {
            text.AppendLine(c, $"  rows unchecked       {report.RowsUnchecked,12:N0}");
        }

        text.AppendLine(c, $"  target read          {report.EntitiesRead,12:N0}   entities of {report.Partitions:N0} partitions in {report.Requests:N0} requests, {report.Throttled:N0} throttled, {report.Retries:N0} retries");
        if (report.RequestCharge is { } charge)
        {
            text.AppendLine(c, $"  request units        {charge,12:N1}");
        }

        if (reportPath is not null)
        {
            text.AppendLine(c, $"  report               {reportPath}");
        }

        foreach (var (kind, examples) in report.Examples.ByKind())
        {
            foreach (var example in examples.Take(Shown))
            {
                text.AppendLine(c, $"  {Label(kind),-19} {Describe(example)}");
            }
        }

        return text.ToString().TrimEnd();
    }

    public static string Label(FindingKind kind) => kind switch
    {
        FindingKind.Missing => "missing",
        FindingKind.Different => "different",
        FindingKind.DuplicateNotWon => "duplicate not won",
        FindingKind.NotDeleted => "not deleted",
        _ => "extra",
    };

    /// <summary>One finding in a line: the key, where its row is, and what differs.</summary>
    public static string Describe(VerifyExample example)
    {
        var c = CultureInfo.InvariantCulture;
        var text = new StringBuilder();
        text.Append(c, $"'{example.PartitionKey}' / '{example.RowKey}'");
        if (example.Where(c) is { } where)
        {
            text.Append(c, $" ({where})");
        }

        if (example.StoredWhere(c) is { } stored)
        {
            text.Append(c, $": the store holds {stored}'s row");
        }

        if (example.Property is { } property)
        {
            text.Append(c, $"{(example.StoredLine is null ? ":" : ";")} '{property}' expected {example.Expected ?? "(none)"}, stored {example.Stored ?? "(none)"}");
        }

        return text.ToString();
    }
}
