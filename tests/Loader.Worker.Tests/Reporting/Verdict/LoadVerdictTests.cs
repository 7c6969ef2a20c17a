using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Partitions;
using Loader.Worker.Reporting.Verdict;

namespace Loader.Worker.Tests.Reporting.Verdict;

/// <summary>
/// The chooser on constructed loads of ten seconds: each limit named when its figure reaches its threshold and not just
/// below it, the order between limits that cross together, and the nearest named (not decisive) when none crosses.
/// The end-to-end tests (EndToEnd/WhatLimitedTheLoadTests.cs) produce each verdict with a real load.
/// </summary>
public sealed class LoadVerdictTests
{
    private static readonly TimeSpan s_elapsed = TimeSpan.FromSeconds(10);

    /// <summary>A load of ten seconds that nothing held: four slots a fifth full, the input read in its first two seconds, the cores a tenth busy.</summary>
    private static LoadDiagnosis Idle(Func<LoadTimesSnapshot, LoadTimesSnapshot>? times = null) => new()
    {
        Elapsed = s_elapsed,
        RowsRead = 10_000,
        RowsPerSecond = 1_000,
        Answers = 100,
        Throttled = 0,
        Times = (times ?? (t => t))(new LoadTimesSnapshot(
            Reader: Seconds(2), ReaderBlocked: Seconds(0.5), Batcher: Seconds(10), BatcherWaitingForRows: Seconds(9), BatcherWaitingForDispatcher: Seconds(0.5),
            Service: Seconds(6), InFlight: Seconds(8), FaultAttempts: TimeSpan.Zero, ThrottledBackoffWall: TimeSpan.Zero, ThrottledBackoff: TimeSpan.Zero,
            FaultBackoffWall: TimeSpan.Zero, FaultBackoff: TimeSpan.Zero, PacedWall: TimeSpan.Zero, Paced: TimeSpan.Zero, SlotWaits: TimeSpan.Zero,
            RetriesAfterThrottling: 0, RetriesAfterFaults: 0, Cpu: Seconds(2))),
        AllowedConcurrency = 4,
        ConcurrencyMode = "Adaptive",
        MaxParallelBatches = 16,
        LongestHeld = new PartitionLine("p1", 500, 0, 5, 0.5, 0, 0, 0),
        LatencyP50Milliseconds = 20,
        Cores = 2,
    };

    private static TimeSpan Seconds(double seconds) => TimeSpan.FromSeconds(seconds);

    [Fact]
    public void A_load_that_read_nothing_has_no_limit_to_name()
    {
        var verdict = LoadVerdict.Choose(Idle() with { RowsRead = 0 });

        Assert.Equal((LimitKind.Undetermined, true), (verdict.Kind, verdict.Decisive));
        Assert.Empty(verdict.Evidence);
    }

    [Fact]
    public void When_no_limit_reaches_its_threshold_the_nearest_is_named_and_the_sentence_says_none_held_the_load()
    {
        var verdict = LoadVerdict.Choose(Idle());

        // Slots a fifth full (0.2 / 0.75 of the way) is the nearest of them.
        Assert.Equal((LimitKind.ServiceLatency, false), (verdict.Kind, verdict.Decisive));
        Assert.StartsWith("No single limit held the load for most of its time; the nearest was the service's latency at the concurrency allowed: requests at the service filled 20% of the 4.0 batches", verdict.Sentence, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(2.5, true)] // (1 s of failed attempts + 1.5 s of back-off) of 10 s of the batches' time: a quarter
    [InlineData(2.4, false)]
    public void Failed_attempts_and_their_back_off_from_a_quarter_of_the_batches_time_are_the_retries_verdict(double faultSeconds, bool faults)
    {
        var load = Idle(t => t with { InFlight = Seconds(8.5), FaultAttempts = Seconds(1), FaultBackoff = Seconds(faultSeconds - 1), FaultBackoffWall = Seconds(faultSeconds - 1), RetriesAfterFaults = 12 });
        load = load with { Times = load.Times with { InFlight = Seconds(10 - (faultSeconds - 1)) } };

        var verdict = LoadVerdict.Choose(load);

        Assert.Equal(faults, verdict.Kind == LimitKind.FaultRetries && verdict.Decisive);
        if (faults)
        {
            Assert.Equal("Retries after faults limited the load: 25% of the batches' time went to attempts that ended in a transient fault (5xx, timeout, no answer) and the waits before retrying them (12 retries).", verdict.Sentence);
            Assert.Equal(["faultShare", "retriesAfterFaults", "faultBackoffSeconds"], verdict.Evidence.Select(evidence => evidence.Name));
        }
    }

    [Fact]
    public void Faults_come_before_the_budget_when_both_cross()
    {
        var verdict = LoadVerdict.Choose(Idle(t => t with { InFlight = Seconds(4), FaultAttempts = Seconds(1), FaultBackoff = Seconds(2), Paced = Seconds(4) }));

        Assert.Equal(LimitKind.FaultRetries, verdict.Kind);
    }

    [Theory]
    [InlineData(3.0, true)] // 3 s of 10 s of the batches' time
    [InlineData(2.9, false)]
    public void Waits_for_a_learned_pace_from_three_tenths_of_the_batches_time_are_the_services_budget(double pacedSeconds, bool budget)
    {
        var load = Idle(t => t with { InFlight = Seconds(10 - pacedSeconds), Paced = Seconds(pacedSeconds), PacedWall = Seconds(6) }) with
        {
            Throttled = 3,
            PacedRequestUnitsPerSecond = 2_400,
            RequestUnitsPerSecond = 2_350,
        };

        var verdict = LoadVerdict.Choose(load);

        Assert.Equal(budget, verdict.Kind == LimitKind.RequestBudget && verdict.Decisive);
        if (budget)
        {
            Assert.Equal("The service's request-unit budget limited the load: 3% of its 100 answers were throttled (429, 503), spread over the partitions, so the load was paced at 2,400 RU/s and delivered 2,350 RU/s; batches waited for the pace 30% of their time.", verdict.Sentence);
        }
    }

    [Theory]
    [InlineData(5, 0, true)] // 5 of 100 answers throttled, none on the longest-held key
    [InlineData(4, 0, false)]
    [InlineData(10, 5, false)] // half the throttles on one key: that key's budget, not the service's
    public void Throttled_answers_from_a_twentieth_spread_over_the_partitions_are_the_services_budget(int throttled, int onOneKey, bool budget)
    {
        var load = Idle() with { Throttled = throttled, LongestHeld = new PartitionLine("p1", 500, 0, 5, 0.5, 0, onOneKey, 0) };

        var verdict = LoadVerdict.Choose(load);

        Assert.Equal(budget, verdict.Kind == LimitKind.RequestBudget && verdict.Decisive);
    }

    [Fact]
    public void A_pace_held_at_the_request_unit_cap_names_the_setting()
    {
        var load = Idle(t => t with { InFlight = Seconds(2), Paced = Seconds(8) }) with
        {
            MaxRequestUnitsPerSecond = 4_000,
            PacedRequestUnitsPerSecond = 4_000,
            RequestUnitsPerSecond = 3_960,
        };

        var verdict = LoadVerdict.Choose(load);

        Assert.Equal("Loader:MaxRequestUnitsPerSecond limited the load: it ran at 3,960 RU/s of the 4,000 it allows (99%), and batches waited for the pace 80% of their time.", verdict.Sentence);
    }

    [Fact]
    public void A_pace_at_the_rows_cap_names_the_setting()
    {
        var load = Idle(t => t with { InFlight = Seconds(2), Paced = Seconds(8) }) with { MaxRowsPerSecond = 400, RowsPerSecond = 396 };

        var verdict = LoadVerdict.Choose(load);

        Assert.Equal("Loader:MaxRowsPerSecond limited the load: it wrote 396 rows/s of the 400 it allows (99%), and batches waited for the pace 80% of their time.", verdict.Sentence);
    }

    [Theory]
    [InlineData(30, 0.2, nameof(LimitKind.ServiceLatency))] // 3 of 4 slots at the service on average, the process at a tenth of its cores
    [InlineData(29, 0.2, null)]
    [InlineData(30, 1.7, nameof(LimitKind.LoaderCpu))] // the same, with the process at 85% of its cores: its own CPU filled the slots
    public void Slots_three_quarters_full_are_the_services_latency_unless_the_process_kept_its_cores_busy(double inFlightSeconds, double cores, string? decisive)
    {
        var verdict = LoadVerdict.Choose(Idle(t => t with { InFlight = Seconds(inFlightSeconds), Cpu = Seconds(cores * 10) }));

        var kind = decisive is null ? (LimitKind?)null : Enum.Parse<LimitKind>(decisive);
        Assert.Equal(kind, verdict.Decisive ? verdict.Kind : null);
        if (kind == LimitKind.ServiceLatency)
        {
            Assert.Equal("The service's latency at the concurrency allowed limited the load: requests at the service filled 75% of the 4.0 batches allowed in flight on average (Adaptive, at most 16), each request taking 20 ms at the median.", verdict.Sentence);
        }
    }

    [Fact]
    public void Slots_full_at_the_most_allowed_suggest_allowing_more()
    {
        var verdict = LoadVerdict.Choose(Idle(t => t with { InFlight = Seconds(150) }) with { AllowedConcurrency = 16, ConcurrencyMode = "Fixed" });

        Assert.EndsWith("(Fixed, at most 16), each request taking 20 ms at the median; a higher Loader:MaxParallelBatches may go faster if the service takes it.", verdict.Sentence, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(3, 2, true)] // 3 s at the service and 2 s backing off of the load's 10 s
    [InlineData(3, 1.9, false)]
    public void A_key_with_a_batch_at_the_service_or_backing_off_half_the_loads_time_is_a_hot_partition(double inFlight, double backoff, bool hot)
    {
        var load = Idle() with { Throttled = 40, LongestHeld = new PartitionLine("ATL", 18_615, 0, 187, inFlight, backoff, 40, 2) };

        var verdict = LoadVerdict.Choose(load);

        Assert.Equal(hot, verdict.Kind == LimitKind.HotPartition && verdict.Decisive);
        if (hot)
        {
            Assert.Equal("One hot partition limited the load: partition 'ATL' (18,615 rows in 187 batches, 40 throttled) had a batch at the service or backing off 50% of the load's time, and a partition's batches go one after another.", verdict.Sentence);
        }
    }

    [Fact]
    public void Full_slots_come_before_a_hot_partition()
    {
        var load = Idle(t => t with { InFlight = Seconds(35) }) with { LongestHeld = new PartitionLine("ATL", 18_615, 0, 187, 9, 0, 0, 0) };

        Assert.Equal(LimitKind.ServiceLatency, LoadVerdict.Choose(load).Kind);
    }

    [Theory]
    [InlineData(7.5, 3.75, 0, nameof(LimitKind.Input))] // the read thread at work three quarters of the time, half of it waiting for the input
    [InlineData(10, 2, 0, nameof(LimitKind.LoaderCpu))] // busy all the time, a fifth of it on the input: its own parsing and mapping
    [InlineData(7.5, 2, 1.75, nameof(LimitKind.Input))] // decompressing counts with the input
    public void A_busy_read_thread_is_the_input_when_half_its_work_is_waiting_for_bytes_and_decompressing_else_the_CPU(double working, double input, double decompressing, string limit)
    {
        var kind = Enum.Parse<LimitKind>(limit);
        var load = Idle(t => t with { Reader = Seconds(working), ReaderBlocked = TimeSpan.Zero }) with
        {
            InputReading = Seconds(input),
            InputDecompressing = Seconds(decompressing),
            InputMedium = "a blob",
            InputCompressed = decompressing > 0,
            InputBytesRead = 100 << 20,
        };

        var verdict = LoadVerdict.Choose(load);

        Assert.Equal((kind, true), (verdict.Kind, verdict.Decisive));
        if (kind == LimitKind.Input && decompressing > 0)
        {
            Assert.Equal("Reading the input limited the load: the read thread worked 75% of the time, 27% of it waiting for the bytes of a blob and 23% decompressing.", verdict.Sentence);
            Assert.Equal(50, verdict.Evidence.Single(evidence => evidence.Name == "inputMiBPerSecond").Value);
        }
    }

    [Fact]
    public void A_read_thread_held_back_by_the_later_stages_while_the_slots_stand_free_is_the_loaders_CPU()
    {
        // It parsed 5 s and waited 5 s on the batch and dispatch stages, with requests at the service in no slot.
        var verdict = LoadVerdict.Choose(Idle(t => t with { Reader = Seconds(10), ReaderBlocked = Seconds(5), InFlight = TimeSpan.Zero }));

        Assert.Equal((LimitKind.LoaderCpu, true), (verdict.Kind, verdict.Decisive));
        Assert.Equal("The loader's CPU limited the load: the read thread parsed and mapped rows 50% of the time and waited 50% more for the batch and dispatch stages' own work, the service's slots standing free; the process kept 0.2 of its 2 cores busy.", verdict.Sentence);
    }

    [Fact]
    public void A_process_keeping_its_cores_busy_is_the_loaders_CPU()
    {
        var verdict = LoadVerdict.Choose(Idle(t => t with { Cpu = Seconds(17) }));

        Assert.Equal("The loader's CPU limited the load: the process kept 1.7 of its 2 cores busy.", verdict.Sentence);
    }
}
