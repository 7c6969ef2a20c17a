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
        text.AppendLine(c, $"  rows to write    {estimate.RowsToWrite,14:N0}   {estimate.RowsRejected:N0} rejected, {estimate.RowsSuperseded:N0} superseded; {estimate.Batches:N0} batches");
        text.AppendLine(c, $"  request-size bound {estimate.PayloadBytes,12:N0}   bytes: each row's largest share of a batch request, summed; what batches are cut by, not what travels or is stored");
        if (estimate.SentBytes is { } sent)
        {
            text.AppendLine(c, $"  sent, about      {sent,14:N0}   bytes of request bodies: {estimate.SentBytesPerRow:N0} per row as measured on the sample's requests; headers and retries add to it");
        }

        var partitions = estimate.Partitions;
        text.AppendLine(c, $"  partitions       {partitions.Count,14:N0}{(partitions.CountIsLowerBound ? "+" : "")}   rows each: min {partitions.MinRows:N0}, median {partitions.MedianRows:N0}, p90 {partitions.P90Rows:N0}, p99 {partitions.P99Rows:N0}, max {partitions.MaxRows:N0}");
        foreach (var largest in partitions.Largest)
        {
            text.AppendLine(c, $"    {largest.Rows,14:N0} rows  {largest.Share,6:P1}  {largest.Bytes,14:N0} bytes (bound)  '{largest.Key}'");
        }

        if (estimate.Sample is { } sample)
        {
            text.AppendLine(c, $"  sample           {sample.Rows,14:N0}   rows written in {sample.Seconds:N1} s: {sample.RowsPerSecond:N0} rows/s, {(sample.RequestUnitsPerRow is { } perRow ? $"{perRow:N2} RU/row" : "no request charge")}, {sample.Throttled:N0} throttled, p50 {sample.LatencyP50Ms:N1} ms");
        }
        else
        {
            text.AppendLine(c, $"  sample           {estimate.SampleNote}");
        }

        if (estimate.Ramp is { } ramp)
        {
            Ramp(text, ramp);
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
        if (prediction is { LowerBound: true, Seconds: { } least })
        {
            text.AppendLine(c, $"  predicted        {"at least " + Duration(least),14}   a lower bound: the sample met no limit, so the load may take longer; it goes at most {prediction.RowsPerSecond:N0} rows/s");
        }
        else if (prediction.Seconds is { } seconds)
        {
            var range = prediction is { LowSeconds: { } low, HighSeconds: { } high } ? $" ({Duration(low)} to {Duration(high)})" : "";
            var why = estimate.Ramp is { } found && prediction.LimitedBy.StartsWith(found.Why, StringComparison.Ordinal)
                ? "as the sample found it" + prediction.LimitedBy[found.Why.Length..]
                : prediction.LimitedBy;
            text.AppendLine(c, $"  predicted        {Duration(seconds),14}{range}   at {prediction.RowsPerSecond:N0} rows/s, set by {Name(prediction.Limit)}: {why}");
            if (prediction.SecondsWithoutBurst is { } withoutBurst)
            {
                text.AppendLine(c, $"                   {Duration(withoutBurst),14}   without the service's burst allowance: a load started before it refills, as right after this estimate");
            }
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

    /// <summary>The steps of the sample, one line each, and where it stopped.</summary>
    private static void Ramp(StringBuilder text, RampOutcome ramp)
    {
        var c = CultureInfo.InvariantCulture;
        text.AppendLine(c, $"  ramp             {ramp.Steps.Count,14:N0}   steps in {ramp.Seconds:N1} s, {ramp.RowsWritten:N0} rows written{(ramp.RequestUnits is { } units ? $" ({units:N0} RU)" : "")}; each writes the input's first rows");
        text.AppendLine("    step        rows  in flight      rows/s   p50 ms  throttled");
        foreach (var step in ramp.Steps)
        {
            var sustained = step.Sustained is { } rate ? $"   {rate.RowsPerSecond:N0} rows/s{(rate.RequestUnitsPerSecond is { } perSecond ? $", {perSecond:N0} RU/s" : "")} let through after the first throttle" : "";
            text.AppendLine(c, $"    {step.Step,4}  {step.RowsWritten,10:N0}  {step.Concurrency,9}  {step.RowsPerSecond,10:N0}  {step.LatencyP50Ms,7:N1}  {step.Throttled,9:N0}{(step.Cut ? "   cut" : "")}{sustained}");
        }

        text.AppendLine(c, $"  limit            {Name(ramp.Limit),14}   {ramp.Why}");
    }

    /// <summary>A limit's name as the text says it.</summary>
    private static string Name(PaceLimit limit) => limit switch
    {
        PaceLimit.ServiceBudget => "service budget",
        PaceLimit.ServiceLatency => "service latency",
        PaceLimit.Concurrency => "concurrency",
        PaceLimit.HotPartition => "hot partition",
        PaceLimit.LoaderCap => "loader cap",
        PaceLimit.ServiceTarget => "service target",
        _ => "none found",
    };

    private static string Duration(double seconds) => TimeSpan.FromSeconds(Math.Round(seconds)) switch
    {
        { TotalHours: >= 1 } time => $"{(int)time.TotalHours}h {time.Minutes:00}m {time.Seconds:00}s",
        { TotalMinutes: >= 1 } time => $"{time.Minutes}m {time.Seconds:00}s",
        var time => string.Create(CultureInfo.InvariantCulture, $"{seconds:N1} s"),
    };
}
