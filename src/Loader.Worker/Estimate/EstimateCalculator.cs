using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;

namespace Loader.Worker.Estimate;

/// <summary>
/// Turns what <c>--estimate</c> measured (the dry run's counts by partition, the sample's request units and the limit its
/// ramp found, the provisioned throughput) into a plan: the pace is the lowest of every limit known — the request-unit
/// budget over the charge per row, Table Storage's account target, <c>Loader:MaxRowsPerSecond</c>, the limit the sample
/// met — and the load cannot end before its largest partition is through at what one partition takes. The duration is
/// a range around the pace's spread; when the sample met no limit, it is a lower bound.
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
        double? ProvisionedRequestUnitsPerSecond)
    {
        /// <summary>What the sample's ramp found; null without a sample, or when it wrote nothing.</summary>
        public RampOutcome? Ramp { get; init; }
    }

    /// <summary>A pace the load cannot exceed, why, and how far it may be off.</summary>
    private sealed record Limit(double RowsPerSecond, string Why, PaceLimit Kind, double Spread = KnownSpread)
    {
        /// <summary>Rows the service lets through before it holds the load to this pace.</summary>
        public double BurstRows { get; init; }

        /// <summary>The fastest the load may go at this limit, when that is faster than the pace measured: the range's short end.</summary>
        public double? FastestRowsPerSecond { get; init; }

        /// <summary>Whether this pace is only the most the load could reach (nothing was found): the duration is then a lower bound.</summary>
        public bool LowerBound { get; init; }
    }

    /// <summary>How far a pace set by a cap or a published target may be off: the load ramps up and drains, a service gives more or less.</summary>
    private const double KnownSpread = 0.1;

    public static LoadEstimate Plan(LoaderOptions settings, Measurements measured)
    {
        var dryRun = measured.DryRun;
        var rows = dryRun.RowsWritten;
        var bytes = measured.Partitions.Values.Sum(partition => partition.Bytes) + measured.Untracked.Bytes;
        var partitions = Summarize(measured.Partitions, measured.PartitionsCapped, rows);
        var warnings = new List<string>();
        var run = measured.Sample;
        var sample = run is null ? null : Measure(run);
        var ramp = measured.Ramp;

        var chargesRequestUnits = settings.Backend == BackendKind.Cosmos || run?.RequestCharge is not null || ramp?.RequestUnits is not null || IsCosmosForTable(settings);
        double? perRow = null;
        string? perRowSource = null;
        if ((ramp?.RequestUnitsPerRow ?? sample?.RequestUnitsPerRow) is { } measuredPerRow)
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

        var limits = new List<Limit>();
        if (budget is { } units && perRow is { } charge && charge > 0)
        {
            var kind = budgetSource == "Loader:MaxRequestUnitsPerSecond" ? PaceLimit.LoaderCap : PaceLimit.ServiceBudget;
            limits.Add(new(units / charge, Invariant($"{budgetSource}: {units:N0} RU/s at {charge:N2} RU/row"), kind));
        }

        if (!chargesRequestUnits)
        {
            limits.Add(new(ServiceTargets.TableAccountEntitiesPerSecond, Invariant($"Table Storage's account target of {ServiceTargets.TableAccountEntitiesPerSecond:N0} entities/s"), PaceLimit.ServiceTarget));
        }

        if (settings.MaxRowsPerSecond is { } rowCap)
        {
            limits.Add(new(rowCap, Invariant($"Loader:MaxRowsPerSecond ({rowCap:N0})"), PaceLimit.LoaderCap));
        }

        if (ramp is not null && SampleLimit(ramp, dryRun, budget, perRow, settings.MaxRowsPerSecond) is { } found)
        {
            limits.Add(found);
        }

        var prediction = Predict(rows, limits, measured.Partitions, perRow, chargesRequestUnits, warnings);
        PartitionWarnings(measured.Partitions, settings, chargesRequestUnits, rows, warnings);
        if (measured.PartitionsCapped)
        {
            warnings.Add(Invariant($"More than {PartitionCensus.MaxTrackedPartitions:N0} partition keys: the distribution is over the first {PartitionCensus.MaxTrackedPartitions:N0}; {measured.Untracked.Rows:N0} rows went to keys beyond them."));
        }

        if (prediction.Limit is PaceLimit.Concurrency or PaceLimit.ServiceLatency && ramp is not null)
        {
            warnings.Add(Invariant($"The sample met no throttling in {ramp.Seconds:N1} s: a service budget whose burst allowance outlasted it would make the load longer than predicted."));
        }

        return LoadEstimate.Unplanned(dryRun) with
        {
            ExitCode = 0,
            Message = null,
            RowsToWrite = rows,
            PayloadBytes = bytes,
            SentBytesPerRow = ramp?.RequestBytesPerRow,
            SentBytes = ramp?.RequestBytesPerRow is { } perRowSent ? (long)Math.Round(perRowSent * rows) : null,
            Partitions = partitions,
            Sample = sample,
            Ramp = ramp,
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

    /// <summary>
    /// The limit the sample's ramp found, as a pace of the whole load, unless a known limit held the sample back: a sample
    /// paced at the budget or the rows-per-second cap measured that, not something slower — nor did a budget it met if
    /// what it let through was not measurably below the cap, or if the service stopped throttling once the cap paced it. With nothing found, the most the loader could reach, which
    /// the dry run's pace also bounds.
    /// </summary>
    private static Limit? SampleLimit(RampOutcome ramp, LoadReport dryRun, double? budget, double? perRow, double? maxRowsPerSecond)
    {
        var known = Math.Min(budget is { } units && perRow is { } charge && charge > 0 ? units / charge : double.PositiveInfinity, maxRowsPerSecond ?? double.PositiveInfinity);
        var pushedBack = ramp.Steps.Any(step => step.Sustained is { LateThrottles: > 0 });
        var held = ramp.Limit == PaceLimit.ServiceBudget && pushedBack
            ? ramp.RowsPerSecond * (1 + ramp.Spread) >= known
            : ramp.Steps.Max(step => step.RowsPerSecond) >= known * 0.8;
        if (held)
        {
            return null;
        }

        // The steps end their rows with a partial batch of every key, so their requests hold fewer rows than the load's,
        // which fill up to Loader:BatchSize: where the number of requests in flight sets the pace, the load's full
        // batches may go as many times faster. No load outruns its dry run's reading, though.
        var reading = dryRun.ElapsedSeconds > 0 ? dryRun.RowsRead / dryRun.ElapsedSeconds : double.PositiveInfinity;
        var loadPerBatch = dryRun.Batches > 0 ? (double)dryRun.RowsWritten / dryRun.Batches : 0;
        var fuller = ramp.RowsPerBatch > 0 ? Math.Max(1, loadPerBatch / ramp.RowsPerBatch) : 1;
        var fastest = Math.Min(ramp.RowsPerSecond * fuller, reading);
        var why = ramp.Why
            + (fuller > 1.05 ? Invariant($"; its requests held {ramp.RowsPerBatch:N0} rows, the load's will hold {loadPerBatch:N0}: at as many requests a second, {ramp.RowsPerSecond * fuller:N0} rows/s") : "")
            + (reading < ramp.RowsPerSecond * fuller ? Invariant($"; the dry run read {reading:N0} rows/s, which no load outruns") : "");
        return ramp.Limit switch
        {
            PaceLimit.ServiceBudget => new Limit(ramp.RowsPerSecond, ramp.Why, ramp.Limit, ramp.Spread) { BurstRows = ramp.BurstRows ?? 0 },
            PaceLimit.None => new Limit(fastest, why, PaceLimit.None) { LowerBound = true },
            _ => new Limit(ramp.RowsPerSecond, why, ramp.Limit, ramp.Spread) { FastestRowsPerSecond = fastest },
        };
    }

    /// <summary>Rows over the lowest limit, unless the largest partition alone takes longer at what one partition can take.</summary>
    private static Prediction Predict(long rows, List<Limit> limits, IReadOnlyDictionary<string, PartitionCount> partitions, double? perRow, bool chargesRequestUnits, List<string> warnings)
    {
        if (limits.Count == 0)
        {
            warnings.Add("No pace could be predicted: no request-unit budget is known (set Loader:MaxRequestUnitsPerSecond, or give the target provisioned throughput) and no sample was written.");
            return new Prediction(null, null, "nothing known");
        }

        var limit = limits.MinBy(limit => limit.RowsPerSecond)!;
        var rate = limit.RowsPerSecond;
        var seconds = Math.Max(0, rows - limit.BurstRows) / rate;
        if (partitions.Count > 0 && PartitionSeconds(partitions.Values.Max(partition => partition.Rows), perRow, chargesRequestUnits) is { } hottest && hottest > seconds)
        {
            var key = PartitionKeyLevels.Display(partitions.MaxBy(partition => partition.Value.Rows).Key);
            var partition = new Prediction(Math.Round(rows / hottest, 1), Math.Round(hottest, 1), Invariant($"partition '{key}', which alone takes {hottest:N0} s at {PartitionLimit(chargesRequestUnits)}")) { Limit = PaceLimit.HotPartition };
            // Past a pace that was only the most the load could reach, the partition's time is a least time too.
            return limit.LowerBound ? partition with { LowerBound = true, LowSeconds = partition.Seconds } : Ranged(partition, hottest, KnownSpread);
        }

        var prediction = new Prediction(Math.Round(rate, 1), Math.Round(seconds, 1), limit.Why) { Limit = limit.Kind, LowerBound = limit.LowerBound };
        var others = limits.Where(other => other != limit).Select(other => other.RowsPerSecond).DefaultIfEmpty(double.PositiveInfinity).Min();
        if (!limit.LowerBound && limit.FastestRowsPerSecond is { } fastest && Math.Min(fastest, others) > rate)
        {
            // From the fastest the load may go to the pace measured: the duration is the middle of the two.
            var low = rows / (Math.Min(fastest, others) * (1 + limit.Spread));
            var high = seconds / (1 - limit.Spread);
            var middle = (low + high) / 2;
            return prediction with { RowsPerSecond = Math.Round(rows / middle, 1), Seconds = Math.Round(middle, 1), LowSeconds = Math.Round(low, 1), HighSeconds = Math.Round(high, 1) };
        }

        if (limit.BurstRows > 0)
        {
            prediction = prediction with { SecondsWithoutBurst = Math.Round(rows / rate, 1) };
        }

        return limit.LowerBound ? prediction with { LowSeconds = prediction.Seconds } : Ranged(prediction, seconds, limit.Spread);
    }

    /// <summary>The range of a prediction: its duration at a pace up to <paramref name="spread"/> faster or slower.</summary>
    private static Prediction Ranged(Prediction prediction, double seconds, double spread) => prediction with
    {
        LowSeconds = Math.Round(seconds / (1 + spread), 1),
        HighSeconds = Math.Round(seconds / (1 - spread), 1),
    };

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
                Invariant($"{gigabytes:N3} GB by the request-size bound (more than is stored) × {prices.CosmosStoragePerGigabyteMonth} per GB-month (Loader:Estimate:Prices:CosmosStoragePerGigabyteMonth), before indexes")));
        }
        else
        {
            lines.Add(new("transactions", Money(batches / 1e4 * (double)prices.PerTenThousandTableTransactions),
                Invariant($"{batches:N0} batch transactions × {prices.PerTenThousandTableTransactions} per 10,000 (Loader:Estimate:Prices:PerTenThousandTableTransactions); retries add to it")));
            lines.Add(new("storage, per month", Money(gigabytes * (double)prices.TableStoragePerGigabyteMonth),
                Invariant($"{gigabytes:N3} GB by the request-size bound (more than is stored) × {prices.TableStoragePerGigabyteMonth} per GB-month (Loader:Estimate:Prices:TableStoragePerGigabyteMonth)")));
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
