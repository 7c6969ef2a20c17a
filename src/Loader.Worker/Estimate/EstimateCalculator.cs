using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;

namespace Loader.Worker.Estimate;

/// <summary>
/// Turns what <c>--estimate</c> measured (the dry run's counts by partition, the sample's request units and pace, the
/// provisioned throughput) into a plan: the pace is the lowest of every limit known — the request-unit budget over the
/// charge per row, Table Storage's account target, <c>Loader:MaxRowsPerSecond</c>, the sample's own pace — and the load
/// cannot end before its largest partition is through at what one partition takes.
/// </summary>
internal static class EstimateCalculator
{
    private const int LargestShown = 5;

    /// <summary>What the passes of the estimate produced.</summary>
    public sealed record Measurements(
        LoadReport DryRun,
        IReadOnlyDictionary<string, PartitionCount> Partitions,
        bool PartitionsCapped,
        (long Rows, long Bytes, long Batches) Untracked,
        LoadReport? Sample,
        string? SampleNote,
        double? ProvisionedRequestUnitsPerSecond);

    public static LoadEstimate Plan(LoaderOptions settings, Measurements measured)
    {
        var dryRun = measured.DryRun;
        var rows = dryRun.RowsWritten;
        var bytes = measured.Partitions.Values.Sum(partition => partition.Bytes) + measured.Untracked.Bytes;
        var partitions = Summarize(measured.Partitions, measured.PartitionsCapped, rows);
        var warnings = new List<string>();
        var run = measured.Sample;
        var sample = run is null ? null : Measure(run);

        var chargesRequestUnits = settings.Backend == BackendKind.Cosmos || run?.RequestCharge is not null || IsCosmosForTable(settings);
        double? perRow = null;
        string? perRowSource = null;
        if (sample?.RequestUnitsPerRow is { } measuredPerRow)
        {
            (perRow, perRowSource) = (measuredPerRow, "measured");
        }
        else if (chargesRequestUnits && rows > 0)
        {
            var kilobytes = Math.Max(1, Math.Ceiling(bytes / (double)rows / 1024));
            (perRow, perRowSource) = (ServiceTargets.AssumedRequestUnitsPerKilobyte * kilobytes, "assumed");
            warnings.Add(Invariant($"No sample measured the charge per row: {perRow:N1} RU/row is assumed (about {ServiceTargets.AssumedRequestUnitsPerKilobyte} RU per KiB written); indexing policy and item shape change it, so run with --sample."));
        }

        double? budget = null;
        string? budgetSource = null;
        if (chargesRequestUnits && settings.MaxRequestUnitsPerSecond is { } cap)
        {
            (budget, budgetSource) = (cap, "Loader:MaxRequestUnitsPerSecond");
        }

        if (chargesRequestUnits && measured.ProvisionedRequestUnitsPerSecond is { } provisioned && (budget is null || provisioned < budget))
        {
            (budget, budgetSource) = (provisioned, "the throughput provisioned for the target");
        }

        var limits = new List<(double RowsPerSecond, string Why)>();
        if (budget is { } units && perRow is { } charge && charge > 0)
        {
            limits.Add((units / charge, Invariant($"{budgetSource}: {units:N0} RU/s at {charge:N2} RU/row")));
        }

        if (!chargesRequestUnits)
        {
            limits.Add((ServiceTargets.TableAccountEntitiesPerSecond, Invariant($"Table Storage's account target of {ServiceTargets.TableAccountEntitiesPerSecond:N0} entities/s")));
        }

        if (settings.MaxRowsPerSecond is { } rowCap)
        {
            limits.Add((rowCap, Invariant($"Loader:MaxRowsPerSecond ({rowCap:N0})")));
        }

        // The sample's own pace is a limit of its own only when a known limit did not hold it back: a sample paced at the
        // budget measured the budget, not something slower.
        if (sample is { RowsPerSecond: > 0 } pace && !HeldByKnownLimit(run!, budget, settings.MaxRowsPerSecond))
        {
            limits.Add((pace.RowsPerSecond, Invariant($"the pace the sample reached ({pace.Rows:N0} rows in {pace.Seconds:N1} s; a larger --sample ramps up further)")));
        }

        var prediction = Predict(rows, limits, measured.Partitions, perRow, chargesRequestUnits, warnings);
        PartitionWarnings(measured.Partitions, settings, chargesRequestUnits, rows, warnings);
        if (measured.PartitionsCapped)
        {
            warnings.Add(Invariant($"More than {PartitionCensus.MaxTrackedPartitions:N0} partition keys: the distribution is over the first {PartitionCensus.MaxTrackedPartitions:N0}; {measured.Untracked.Rows:N0} rows went to keys beyond them."));
        }

        if (run is { Throttled: > 0 })
        {
            warnings.Add(Invariant($"The sample was throttled {run.Throttled:N0} times: the target's budget is below what the loader sent; the pace above is what it allowed."));
        }

        return LoadEstimate.Unplanned(dryRun) with
        {
            ExitCode = 0,
            Message = null,
            RowsToWrite = rows,
            PayloadBytes = bytes,
            Partitions = partitions,
            Sample = sample,
            SampleNote = measured.SampleNote,
            RequestUnitsPerRow = perRow is { } value ? Math.Round(value, 3) : null,
            RequestUnitsPerRowSource = perRowSource,
            RequestUnitsPerSecondBudget = budget,
            BudgetSource = budgetSource,
            Prediction = prediction,
            Cost = Cost(settings.Estimate.Prices, chargesRequestUnits, rows, perRow, budget, dryRun.Batches, bytes, prediction.Seconds),
            Warnings = warnings,
        };
    }

    /// <summary>Whether the sample ran at (within a fifth of) the request-unit budget or the rows-per-second cap, which then set its pace.</summary>
    private static bool HeldByKnownLimit(LoadReport sample, double? budget, double? maxRowsPerSecond) =>
        (budget is { } units && sample.RequestUnitsPerSecond >= units * 0.8)
        || (maxRowsPerSecond is { } rows && sample.RowsPerSecond >= rows * 0.8);

    /// <summary>Rows over the lowest limit, unless the largest partition alone takes longer at what one partition can take.</summary>
    private static Prediction Predict(long rows, List<(double RowsPerSecond, string Why)> limits, IReadOnlyDictionary<string, PartitionCount> partitions, double? perRow, bool chargesRequestUnits, List<string> warnings)
    {
        if (limits.Count == 0)
        {
            warnings.Add("No pace could be predicted: no request-unit budget is known (set Loader:MaxRequestUnitsPerSecond, or give the target provisioned throughput) and no sample was written.");
            return new Prediction(null, null, "nothing known");
        }

        var (rate, why) = limits.MinBy(limit => limit.RowsPerSecond);
        var seconds = rows / rate;
        if (partitions.Count > 0 && PartitionSeconds(partitions.Values.Max(partition => partition.Rows), perRow, chargesRequestUnits) is { } hottest && hottest > seconds)
        {
            var key = PartitionKeyLevels.Display(partitions.MaxBy(partition => partition.Value.Rows).Key);
            return new Prediction(Math.Round(rows / hottest, 1), Math.Round(hottest, 1), Invariant($"partition '{key}', which alone takes {hottest:N0} s at {PartitionLimit(chargesRequestUnits)}"));
        }

        return new Prediction(Math.Round(rate, 1), Math.Round(seconds, 1), why);
    }

    /// <summary>The least time a partition of <paramref name="rows"/> rows takes at what one partition can take; null when unknown.</summary>
    private static double? PartitionSeconds(long rows, double? perRow, bool chargesRequestUnits) =>
        chargesRequestUnits
            ? perRow is { } charge ? rows * charge / ServiceTargets.CosmosPhysicalPartitionRequestUnitsPerSecond : null
            : rows / ServiceTargets.TablePartitionEntitiesPerSecond;

    private static string PartitionLimit(bool chargesRequestUnits) => chargesRequestUnits
        ? Invariant($"{ServiceTargets.CosmosPhysicalPartitionRequestUnitsPerSecond:N0} RU/s per physical partition")
        : Invariant($"{ServiceTargets.TablePartitionEntitiesPerSecond:N0} entities/s per partition");

    private static void PartitionWarnings(IReadOnlyDictionary<string, PartitionCount> partitions, LoaderOptions settings, bool chargesRequestUnits, long rows, List<string> warnings)
    {
        if (partitions.Count == 0 || rows == 0)
        {
            return;
        }

        foreach (var (full, count) in partitions.OrderByDescending(partition => partition.Value.Rows).Take(3))
        {
            var key = PartitionKeyLevels.Display(full);
            var share = (double)count.Rows / rows;
            // Hot: a partition that must go at its own limit while the whole load could go faster.
            var alone = chargesRequestUnits ? null : PartitionSeconds(count.Rows, null, false);
            if (!chargesRequestUnits && alone is { } seconds && count.Rows > ServiceTargets.TablePartitionEntitiesPerSecond * 10 && share > ServiceTargets.TablePartitionEntitiesPerSecond / ServiceTargets.TableAccountEntitiesPerSecond)
            {
                warnings.Add(Invariant($"Hot partition '{key}': {count.Rows:N0} rows ({share:P1} of the load). Table Storage takes about {ServiceTargets.TablePartitionEntitiesPerSecond:N0} entities/s per partition, so it alone needs at least {seconds:N0} s; a key that spreads these rows over more partitions loads faster."));
            }

            if (chargesRequestUnits && share > 0.1 && count.Rows > 10_000)
            {
                warnings.Add(Invariant($"Hot partition '{key}': {count.Rows:N0} rows ({share:P1} of the load) in one logical partition, which sits in one physical partition of at most {ServiceTargets.CosmosPhysicalPartitionRequestUnitsPerSecond:N0} RU/s: however much throughput the container has, this key's rows go no faster than that."));
            }

            if (settings.Backend == BackendKind.Cosmos && count.Bytes > ServiceTargets.CosmosLogicalPartitionBytes * 0.8)
            {
                // A hierarchical key's 20 GB hold for each value of the full key, not for a prefix (tenant alone may grow past it).
                var logical = PartitionKeyLevels.IsHierarchical(full) ? "a Cosmos DB logical partition (a value of the full hierarchical key)" : "a Cosmos DB logical partition";
                warnings.Add(Invariant($"Partition '{key}' would hold about {count.Bytes / 1e9:N1} GB: {logical} holds at most {ServiceTargets.CosmosLogicalPartitionBytes / 1e9:N0} GB, and writes beyond it fail."));
            }
        }
    }

    private static CostEstimate Cost(PriceOptions prices, bool chargesRequestUnits, long rows, double? perRow, double? budget, long batches, long bytes, double? seconds)
    {
        var lines = new List<CostLine>();
        var gigabytes = bytes / 1e9;
        if (chargesRequestUnits)
        {
            if (perRow is { } charge)
            {
                var units = rows * charge;
                lines.Add(new("request units, serverless", Money(units / 1e6 * (double)prices.PerMillionRequestUnits),
                    Invariant($"{units:N0} RU × {prices.PerMillionRequestUnits} per million (Loader:Estimate:Prices:PerMillionRequestUnits); retries of throttled requests are free")));
            }

            if (budget is { } units2 && seconds is { } duration)
            {
                var hours = Math.Max(1, Math.Ceiling(duration / 3600));
                lines.Add(new("provisioned throughput held during the load", Money(hours * units2 / 100 * (double)prices.PerHundredRequestUnitsPerSecondHour),
                    Invariant($"{units2:N0} RU/s for {hours:N0} started hour(s) × {prices.PerHundredRequestUnitsPerSecondHour} per 100 RU/s-hour (Loader:Estimate:Prices:PerHundredRequestUnitsPerSecondHour); nothing extra if the container has it anyway")));
            }

            lines.Add(new("storage, per month", Money(gigabytes * (double)prices.CosmosStoragePerGigabyteMonth),
                Invariant($"{gigabytes:N3} GB × {prices.CosmosStoragePerGigabyteMonth} per GB-month (Loader:Estimate:Prices:CosmosStoragePerGigabyteMonth), before indexes")));
        }
        else
        {
            lines.Add(new("transactions", Money(batches / 1e4 * (double)prices.PerTenThousandTableTransactions),
                Invariant($"{batches:N0} batch transactions × {prices.PerTenThousandTableTransactions} per 10,000 (Loader:Estimate:Prices:PerTenThousandTableTransactions); retries add to it")));
            lines.Add(new("storage, per month", Money(gigabytes * (double)prices.TableStoragePerGigabyteMonth),
                Invariant($"{gigabytes:N3} GB × {prices.TableStoragePerGigabyteMonth} per GB-month (Loader:Estimate:Prices:TableStoragePerGigabyteMonth)")));
        }

        return new CostEstimate(prices.Currency, PriceOptions.DefaultsDate, lines);
    }

    private static SampleMeasurement Measure(LoadReport sample) => new(
        sample.RowsWritten,
        sample.ElapsedSeconds,
        sample.ElapsedSeconds > 0 ? Math.Round(sample.RowsWritten / sample.ElapsedSeconds, 1) : 0,
        sample.RequestUnitsPerRow,
        sample.Throttled,
        sample.LatencyMs.P50,
        sample.ExitCode);

    private static PartitionSummary Summarize(IReadOnlyDictionary<string, PartitionCount> partitions, bool capped, long rows)
    {
        if (partitions.Count == 0)
        {
            return new PartitionSummary(0, capped, 0, 0, 0, 0, 0, []);
        }

        var sizes = partitions.Values.Select(partition => partition.Rows).Order().ToArray();
        long At(double quantile) => sizes[Math.Min(sizes.Length - 1, (int)Math.Ceiling(quantile * sizes.Length) - 1)];
        var largest = partitions
            .OrderByDescending(partition => partition.Value.Rows)
            .ThenBy(partition => partition.Key, StringComparer.Ordinal)
            .Take(LargestShown)
            .Select(partition => new PartitionShare(PartitionKeyLevels.Display(partition.Key), partition.Value.Rows, partition.Value.Bytes, rows > 0 ? Math.Round((double)partition.Value.Rows / rows, 4) : 0))
            .ToList();
        return new PartitionSummary(partitions.Count, capped, sizes[0], At(0.5), At(0.9), At(0.99), sizes[^1], largest);
    }

    private static bool IsCosmosForTable(LoaderOptions settings)
    {
        try
        {
            return settings.Backend == BackendKind.Tables && settings.Tables.ServiceEndpoint().Host.EndsWith(".cosmos.azure.com", StringComparison.OrdinalIgnoreCase);
        }
        catch (Exception exception) when (exception is FormatException or UriFormatException or ArgumentException)
        {
            return false;
        }
    }

    private static double Money(double amount) => Math.Round(amount, 4);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
