using System.Globalization;
using System.Text;

namespace Loader.Worker.Estimate;

/// <summary>The estimate as a person reads it, followed by the same as JSON for a script.</summary>
internal static class EstimateText
{
    public static string Format(LoadEstimate estimate)
    {
        var c = CultureInfo.InvariantCulture;
        var text = new StringBuilder();
        text.AppendLine(c, $"Estimate: {estimate.Input}{(estimate.InputBytes is { } bytes ? $" ({bytes:N0} bytes)" : "")} -> {estimate.Backend} {estimate.Target}");
        if (estimate.ExitCode != 0)
        {
            text.AppendLine(c, $"  FAILED (exit code {estimate.ExitCode}): {estimate.Message}");
            return text.ToString();
        }

        text.AppendLine(c, $"  rows read        {estimate.RowsRead,14:N0}   in {estimate.ReadSeconds:N1} s (dry run)");
        text.AppendLine(c, $"  rows to write    {estimate.RowsToWrite,14:N0}   {estimate.RowsRejected:N0} rejected, {estimate.RowsSuperseded:N0} superseded; {estimate.Batches:N0} batches, at most {estimate.PayloadBytes:N0} bytes sent");
        var partitions = estimate.Partitions;
        text.AppendLine(c, $"  partitions       {partitions.Count,14:N0}{(partitions.CountIsLowerBound ? "+" : "")}   rows each: min {partitions.MinRows:N0}, median {partitions.MedianRows:N0}, p90 {partitions.P90Rows:N0}, p99 {partitions.P99Rows:N0}, max {partitions.MaxRows:N0}");
        foreach (var largest in partitions.Largest)
        {
            text.AppendLine(c, $"    {largest.Rows,14:N0} rows  {largest.Share,6:P1}  {largest.Bytes,14:N0} bytes  '{largest.Key}'");
        }

        if (estimate.Sample is { } sample)
        {
            text.AppendLine(c, $"  sample           {sample.Rows,14:N0}   rows written in {sample.Seconds:N1} s: {sample.RowsPerSecond:N0} rows/s, {(sample.RequestUnitsPerRow is { } perRow ? $"{perRow:N2} RU/row" : "no request charge")}, {sample.Throttled:N0} throttled, p50 {sample.LatencyP50Ms:N1} ms");
        }
        else
        {
            text.AppendLine(c, $"  sample           {estimate.SampleNote}");
        }

        if (estimate.RequestUnitsPerRow is { } units)
        {
            text.AppendLine(c, $"  RU per row       {units,14:N2}   {estimate.RequestUnitsPerRowSource}");
        }

        if (estimate.RequestUnitsPerSecondBudget is { } budget)
        {
            text.AppendLine(c, $"  RU/s budget      {budget,14:N0}   from {estimate.BudgetSource}");
        }

        var prediction = estimate.Prediction;
        if (prediction.Seconds is { } seconds)
        {
            text.AppendLine(c, $"  predicted        {Duration(seconds),14}   at {prediction.RowsPerSecond:N0} rows/s, set by {prediction.LimitedBy}");
        }
        else
        {
            text.AppendLine(c, $"  predicted        {"unknown",14}   {prediction.LimitedBy}");
        }
        text.AppendLine(c, $"  cost             prices in {estimate.Cost.Currency}, defaults as of {estimate.Cost.PricesAsOf} (set Loader:Estimate:Prices:*)");
        foreach (var line in estimate.Cost.Lines)
        {
            text.AppendLine(c, $"    {line.Amount,12:N4}  {line.What}: {line.Basis}");
        }

        foreach (var warning in estimate.Warnings)
        {
            text.AppendLine(c, $"  WARNING: {warning}");
        }

        return text.ToString();
    }

    private static string Duration(double seconds) => TimeSpan.FromSeconds(Math.Round(seconds)) switch
    {
        { TotalHours: >= 1 } time => $"{(int)time.TotalHours}h {time.Minutes:00}m {time.Seconds:00}s",
        { TotalMinutes: >= 1 } time => $"{time.Minutes}m {time.Seconds:00}s",
        var time => string.Create(CultureInfo.InvariantCulture, $"{seconds:N1} s"),
    };
}
