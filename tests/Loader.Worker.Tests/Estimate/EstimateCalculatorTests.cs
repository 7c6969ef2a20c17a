using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Estimate;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Reporting.Html;

namespace Loader.Worker.Tests.Estimate;

public sealed class EstimateCalculatorTests
{
    private static LoadReport DryRun(long rows, long batches) => HtmlReportTests.Report() with { RowsWritten = rows, Batches = batches, RequestCharge = null, DryRun = true };

    private static Dictionary<string, PartitionCount> Partitions(params (string Key, long Rows)[] partitions)
    {
        var counts = new Dictionary<string, PartitionCount>();
        foreach (var (key, rows) in partitions)
        {
            var count = new PartitionCount();
            for (var left = rows; left > 0; left -= 100)
            {
                count.Add(new EntityBatch(key, [.. Enumerable.Range(0, (int)Math.Min(100, left)).Select(i => new LoadEntity(key, $"r{i}", [], default, 1_000))], WriteMode.Upsert));
            }

            counts[key] = count;
        }

        return counts;
    }

    [Fact]
    public void A_Table_Storage_load_goes_at_the_account_target_unless_its_largest_partition_takes_longer_at_2000_entities_per_second()
    {
        var even = EstimateCalculator.Plan(new LoaderOptions(), new(DryRun(400_000, 4_000), Partitions([.. Enumerable.Range(0, 400).Select(i => ($"p{i}", 1_000L))]), false, default, null, "none", null));
        var skewed = EstimateCalculator.Plan(new LoaderOptions(), new(DryRun(400_000, 4_000), Partitions(("HOT", 100_000), ("cold", 300_000)), false, default, null, "none", null));

        Assert.Equal((20_000, 20), (even.Prediction.RowsPerSecond, even.Prediction.Seconds));
        Assert.Empty(even.Warnings);
        Assert.Equal(400, even.Partitions.Count);
        Assert.Equal(150, skewed.Prediction.Seconds); // 300,000 rows at 2,000 entities/s
        Assert.StartsWith("partition 'cold'", skewed.Prediction.LimitedBy, StringComparison.Ordinal);
        Assert.Contains(skewed.Warnings, warning => warning.StartsWith("Hot partition 'cold'", StringComparison.Ordinal));
        Assert.Equal(0.0001, skewed.Cost.Lines.Single(line => line.What == "transactions").Amount, 6); // 4,000 batches at 0.00036 per 10,000
    }

    [Fact]
    public void Cosmos_without_a_sample_assumes_about_6_RU_per_KiB_and_paces_at_the_provisioned_throughput()
    {
        var settings = new LoaderOptions { Backend = BackendKind.Cosmos };

        var plan = EstimateCalculator.Plan(settings, new(DryRun(100_000, 1_000), Partitions(("a", 50_000), ("b", 50_000)), false, default, null, "none: --sample 0", 12_000));

        Assert.Equal((6.0, "assumed"), (plan.RequestUnitsPerRow, plan.RequestUnitsPerRowSource));
        Assert.Equal(12_000, plan.RequestUnitsPerSecondBudget);
        // 2,000 rows/s by the budget, but each key sits in one physical partition of 10,000 RU/s: 50,000 × 6 / 10,000 = 30 s < 50 s.
        Assert.Equal(50, plan.Prediction.Seconds);
        Assert.Contains(plan.Warnings, warning => warning.StartsWith("Hot partition 'a'", StringComparison.Ordinal));
        Assert.Contains(plan.Warnings, warning => warning.StartsWith("No sample measured", StringComparison.Ordinal));
        Assert.Equal(0.15, plan.Cost.Lines.Single(line => line.What == "request units, serverless").Amount); // 600,000 RU at 0.25 per million
    }

    [Fact]
    public void Without_any_known_limit_nothing_is_predicted_and_the_estimate_says_why()
    {
        var plan = EstimateCalculator.Plan(new LoaderOptions { Backend = BackendKind.Cosmos }, new(DryRun(10, 1), Partitions(("a", 10)), false, default, null, "none", null));

        Assert.Null(plan.Prediction.Seconds);
        Assert.Contains(plan.Warnings, warning => warning.StartsWith("No pace could be predicted", StringComparison.Ordinal));
    }

    /// <summary>One batch of <paramref name="rows"/> entities of about 2 GB each: gigabytes of payload in a few rows.</summary>
    private static PartitionCount Gigabytes(string key, int rows)
    {
        var count = new PartitionCount();
        count.Add(new EntityBatch(key, [.. Enumerable.Range(0, rows).Select(i => new LoadEntity(key, $"r{i}", [], default, 2_000_000_000))], WriteMode.Upsert));
        return count;
    }

    [Fact]
    public void A_hierarchical_key_is_counted_and_warned_about_on_the_full_key_not_its_prefix()
    {
        var partitions = new Dictionary<string, PartitionCount>
        {
            [PartitionKeyLevels.Join(["acme", "u1"])] = Gigabytes(PartitionKeyLevels.Join(["acme", "u1"]), 9),
            [PartitionKeyLevels.Join(["acme", "u2"])] = Gigabytes(PartitionKeyLevels.Join(["acme", "u2"]), 5),
            [PartitionKeyLevels.Join(["acme", "u3"])] = Gigabytes(PartitionKeyLevels.Join(["acme", "u3"]), 5),
        };

        var plan = EstimateCalculator.Plan(new LoaderOptions { Backend = BackendKind.Cosmos }, new(DryRun(19, 3), partitions, false, default, null, "none", null));

        // acme holds 38 GB in all, but each full key is its own logical partition: only ["acme","u1"] (18 GB) nears 20 GB.
        Assert.Equal(3, plan.Partitions.Count);
        Assert.Equal("""["acme","u1"]""", plan.Partitions.Largest[0].Key);
        Assert.Equal(
            ["""Partition '["acme","u1"]' would hold about 18.0 GB: a Cosmos DB logical partition (a value of the full hierarchical key) holds at most 20 GB, and writes beyond it fail."""],
            plan.Warnings.Where(warning => warning.Contains("GB", StringComparison.Ordinal)));
    }

    /// <summary>A ramp that found <paramref name="limit"/> at <paramref name="rowsPerSecond"/>, its last step at <paramref name="concurrency"/> in flight.</summary>
    private static RampOutcome Ramp(PaceLimit limit, double rowsPerSecond, double spread = 0.1, double? burstRows = null, int concurrency = 16, double rowsPerBatch = 100) =>
        new([new RampStep(1, concurrency, 1_000, 1_000, 10, 1, Math.Min(rowsPerSecond, 2_000), 5_000, 40, 0, false, null, null)],
            limit, rowsPerSecond, spread, rowsPerBatch, burstRows, burstRows * 5, 6, 1_000, 5_000, 5, 700, "what the ramp found");

    [Fact]
    public void A_budget_the_sample_met_predicts_the_load_less_the_burst_with_a_range_around_it()
    {
        // 60,000 rows at 600 rows/s after a burst of 1,800 rows: 97 s, give or take the 5% the pace may be off; 100 s without the burst.
        var plan = EstimateCalculator.Plan(new LoaderOptions(), new(DryRun(60_000, 600), Partitions([.. Enumerable.Range(0, 60).Select(i => ($"p{i}", 1_000L))]), false, default, null, null, null)
        {
            Ramp = Ramp(PaceLimit.ServiceBudget, 600, spread: 0.05, burstRows: 1_800),
        });

        Assert.Equal(PaceLimit.ServiceBudget, plan.Prediction.Limit);
        Assert.False(plan.Prediction.LowerBound);
        Assert.Equal((600, 97), (plan.Prediction.RowsPerSecond, plan.Prediction.Seconds));
        Assert.Equal((92.4, 102.1, 100.0), (plan.Prediction.LowSeconds, plan.Prediction.HighSeconds, plan.Prediction.SecondsWithoutBurst)); // 97 / 1.05; 97 / 0.95
        Assert.Equal("what the ramp found", plan.Prediction.LimitedBy);
        Assert.Equal(42_000_000, plan.SentBytes); // 700 bytes a row as the sample's requests measured
        Assert.Equal(5, plan.RequestUnitsPerRow);
    }

    [Fact]
    public void With_no_limit_found_the_duration_is_a_lower_bound_at_the_most_the_loader_could_reach()
    {
        var partitions = Partitions([.. Enumerable.Range(0, 100).Select(i => ($"p{i}", 1_000L))]);
        var dryRun = DryRun(100_000, 1_000) with { RowsRead = 100_000, ElapsedSeconds = 10 };

        var plan = EstimateCalculator.Plan(new LoaderOptions(), new(dryRun, partitions, false, default, null, null, null) { Ramp = Ramp(PaceLimit.None, 4_000) });
        var slowReader = EstimateCalculator.Plan(new LoaderOptions(), new(dryRun with { ElapsedSeconds = 50 }, partitions, false, default, null, null, null) { Ramp = Ramp(PaceLimit.None, 4_000) });

        Assert.Equal((PaceLimit.None, true, 25.0), (plan.Prediction.Limit, plan.Prediction.LowerBound, plan.Prediction.Seconds)); // 100,000 rows at 4,000 rows/s at most
        Assert.Equal((25.0, null), (plan.Prediction.LowSeconds, plan.Prediction.HighSeconds));
        Assert.Contains("at least 25.0 s", EstimateText.Format(plan), StringComparison.Ordinal);
        Assert.Contains("a lower bound: the sample met no limit", EstimateText.Format(plan), StringComparison.Ordinal);
        // The dry run read 2,000 rows/s: no load writes faster than it reads.
        Assert.Equal((true, 50.0), (slowReader.Prediction.LowerBound, slowReader.Prediction.Seconds));
        Assert.Contains("the dry run read 2,000 rows/s", slowReader.Prediction.LimitedBy, StringComparison.Ordinal);
    }

    [Fact]
    public void A_sample_held_at_a_request_unit_cap_is_planned_at_the_cap_whatever_its_ramp_found()
    {
        var settings = new LoaderOptions { MaxRequestUnitsPerSecond = 2_700 };
        var partitions = Partitions([.. Enumerable.Range(0, 80).Select(i => ($"p{i}", 100L))]);

        var plan = EstimateCalculator.Plan(settings, new(DryRun(8_000, 80), partitions, false, default, null, null, null) { Ramp = Ramp(PaceLimit.Concurrency, 540) });

        Assert.Equal((PaceLimit.LoaderCap, 540, 14.8), (plan.Prediction.Limit, plan.Prediction.RowsPerSecond, plan.Prediction.Seconds));
        Assert.StartsWith("Loader:MaxRequestUnitsPerSecond: 2,700 RU/s at 5.00 RU/row", plan.Prediction.LimitedBy, StringComparison.Ordinal);
        Assert.Empty(plan.Warnings);
    }

    [Fact]
    public void The_text_names_the_request_size_bound_and_the_bytes_that_travel_apart()
    {
        var plan = EstimateCalculator.Plan(new LoaderOptions(), new(DryRun(1_000, 10), Partitions(("a", 1_000)), false, default, null, null, null) { Ramp = Ramp(PaceLimit.ServiceBudget, 600, burstRows: 0) });

        var text = EstimateText.Format(plan);

        Assert.Contains("request-size bound    1,000,000   bytes: each row's largest share of a batch request", text, StringComparison.Ordinal);
        Assert.Contains("sent, about             700,000   bytes of request bodies: 700 per row as measured on the sample's requests", text, StringComparison.Ordinal);
        Assert.Contains("set by service budget: as the sample found it", text, StringComparison.Ordinal);
        Assert.DoesNotContain("at most", text.Split('\n')[2], StringComparison.Ordinal);
    }

    [Fact]
    public void Without_throttling_the_range_runs_from_the_sample_s_pace_to_as_many_requests_a_second_in_the_load_s_fuller_batches()
    {
        // The sample went 2,000 rows/s in requests of 40 rows; the load's hold 100: at as many requests a second, 5,000 rows/s.
        var dryRun = DryRun(100_000, 1_000) with { RowsRead = 100_000, ElapsedSeconds = 2 };
        var plan = EstimateCalculator.Plan(new LoaderOptions(), new(dryRun, Partitions([.. Enumerable.Range(0, 100).Select(i => ($"p{i}", 1_000L))]), false, default, null, null, null)
        {
            Ramp = Ramp(PaceLimit.Concurrency, 2_000, rowsPerBatch: 40),
        });

        Assert.Equal((PaceLimit.Concurrency, false), (plan.Prediction.Limit, plan.Prediction.LowerBound));
        Assert.Equal((18.2, 55.6, 36.9), (plan.Prediction.LowSeconds, plan.Prediction.HighSeconds, plan.Prediction.Seconds)); // 100,000 / 5,000 / 1.1; 50 / 0.9; between
        Assert.EndsWith("; its requests held 40 rows, the load's will hold 100: at as many requests a second, 5,000 rows/s", plan.Prediction.LimitedBy, StringComparison.Ordinal);
        Assert.Contains(plan.Warnings, warning => warning.StartsWith("The sample met no throttling in 6.0 s", StringComparison.Ordinal));
    }

    [Fact]
    public void A_hot_partition_past_a_lower_bound_is_a_lower_bound_too()
    {
        // At most 40,000 rows/s: at least 2.5 s; but 'HOT' alone is 70,000 rows of 5 RU at 10,000 RU/s per physical partition, 35 s.
        var dryRun = DryRun(100_000, 1_000) with { RowsRead = 100_000, ElapsedSeconds = 1 };
        var plan = EstimateCalculator.Plan(new LoaderOptions(), new(dryRun, Partitions(("HOT", 70_000), ("cold", 30_000)), false, default, null, null, null) { Ramp = Ramp(PaceLimit.None, 40_000) });

        Assert.Equal((PaceLimit.HotPartition, true, 35.0, 35.0, null), (plan.Prediction.Limit, plan.Prediction.LowerBound, plan.Prediction.Seconds, plan.Prediction.LowSeconds, plan.Prediction.HighSeconds));
        Assert.Contains("at least 35.0 s", EstimateText.Format(plan), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0, nameof(PaceLimit.LoaderCap))] // the 429s stopped once the cap paced the sample: the cap holds the load
    [InlineData(5, nameof(PaceLimit.ServiceBudget))] // they went on: the budget, measurably under the cap, holds it
    public void A_budget_met_under_a_cap_counts_only_while_the_service_keeps_throttling(int lateThrottles, string expected)
    {
        // Capped at 2,700 RU/s (540 rows/s at 5 RU); the service let 480 rows/s through after its first 429.
        var sustained = new SustainedRate(480, 2_400, 960, 20, 50, 2, lateThrottles);
        var throttled = new RampStep(3, 16, 4_000, 2_000, 40, 3, 660, 10_000, 40, 30, true, 2.5, sustained);
        var ramp = new RampOutcome([throttled], PaceLimit.ServiceBudget, 480, 0.05, 50, 0, 0, 6, 2_000, 10_000, 5, 700, "throttled");
        var partitions = Partitions([.. Enumerable.Range(0, 80).Select(i => ($"p{i}", 100L))]);

        var plan = EstimateCalculator.Plan(new LoaderOptions { MaxRequestUnitsPerSecond = 2_700 }, new(DryRun(8_000, 80), partitions, false, default, null, null, null) { Ramp = ramp });

        Assert.Equal(expected, plan.Prediction.Limit.ToString());
    }
}
