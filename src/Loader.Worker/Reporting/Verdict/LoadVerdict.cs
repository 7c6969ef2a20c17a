using System.Globalization;

namespace Loader.Worker.Reporting.Verdict;

/// <summary>
/// Chooses what limited a load, from its counters (<see cref="LoadDiagnosis"/>): the one place the verdict is decided.
/// The limits are tested in a fixed order, each against a threshold; the first to cross it is the verdict. When none
/// does, the one nearest its threshold is named, and the sentence says no single limit held the load.
/// docs/what-limited-a-load.md lists the order and thresholds: change them together.
/// </summary>
/// <remarks>
/// The order puts first what explains the others. Faults and the budget make batches wait outside the service (back-off,
/// pace), which empties the slots and stretches one key's chain; full slots make a hot key look long; a fast reader is
/// not a limit while the service holds it back. The thresholds sit well away from what a load held by something else
/// shows, so a busy machine's noise does not flip a verdict.
/// </remarks>
internal static class LoadVerdict
{
    /// <summary>Of the batches' time, failed attempts and the waits before retrying them.</summary>
    public const double FaultShareAtLeast = 0.25;

    /// <summary>Of the batches' time, waits for the pace (a cap, or the rate learned from 429s).</summary>
    public const double PacedShareAtLeast = 0.30;

    /// <summary>Of the service's answers, throttled ones, when they were not one key's.</summary>
    public const double ThrottledShareAtLeast = 0.05;

    /// <summary>Throttles are one key's, not the service's budget, when that key got at least this share of them.</summary>
    public const double OneKeysThrottlesAtLeast = 0.5;

    /// <summary>Of the concurrency slots allowed, the share requests at the service kept full.</summary>
    public const double SlotUseAtLeast = 0.75;

    /// <summary>Of the cores, the share the process kept busy: its own CPU, not the service, then filled the slots.</summary>
    public const double CoresUsedAtLeast = 0.85;

    /// <summary>Of the load's time, that one key had a batch at the service or backing off.</summary>
    public const double HeldShareAtLeast = 0.5;

    /// <summary>Of the load's time, that the read (or batch) thread worked.</summary>
    public const double ThreadBusyAtLeast = 0.75;

    /// <summary>Of the read thread's work, the share spent waiting for the input's bytes and decompressing.</summary>
    public const double InputShareAtLeast = 0.5;

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    public static LimitVerdict Choose(LoadDiagnosis load)
    {
        if (load.RowsRead == 0 || load.Elapsed <= TimeSpan.Zero)
        {
            return new LimitVerdict(LimitKind.Undetermined, "Nothing was read, so there is no limit to name.", Decisive: true, []);
        }

        var candidates = Candidates(load).ToList();
        var first = candidates.FirstOrDefault(candidate => candidate.Score >= 1);
        var chosen = first ?? candidates.MaxBy(candidate => candidate.Score)!;
        var sentence = first is not null
            ? $"{char.ToUpperInvariant(chosen.Lead[0])}{chosen.Lead[1..]} limited the load: {chosen.Details}."
            : $"No single limit held the load for most of its time; the nearest was {chosen.Lead}: {chosen.Details}.";
        return new LimitVerdict(chosen.Kind, sentence, first is not null, chosen.Evidence);
    }

    /// <summary>Each limit in the order they are tested, with how far it went towards its threshold (1: there).</summary>
    private static IEnumerable<Candidate> Candidates(LoadDiagnosis load)
    {
        yield return Faults(load);
        yield return Budget(load);
        yield return Slots(load);
        if (load.LongestHeld is not null)
        {
            yield return HotPartition(load);
        }

        yield return Input(load);
        yield return Cpu(load);
    }

    private static Candidate Faults(LoadDiagnosis load) => new(
        LimitKind.FaultRetries,
        load.FaultShare / FaultShareAtLeast,
        "retries after faults",
        F($"{Pct(load.FaultShare)} of the batches' time went to attempts that ended in a transient fault (5xx, timeout, no answer) and the waits before retrying them ({load.Times.RetriesAfterFaults:N0} retries)"),
        [
            Evidence("faultShare", load.FaultShare, F($"failed attempts and their back-off: {Pct(load.FaultShare)} of the batches' time")),
            Evidence("retriesAfterFaults", load.Times.RetriesAfterFaults, F($"retries after a transient fault: {load.Times.RetriesAfterFaults:N0}")),
            Evidence("faultBackoffSeconds", load.Times.FaultBackoffWall.TotalSeconds, F($"time with a batch backing off after a fault: {load.Times.FaultBackoffWall.TotalSeconds:N1} s of {load.Elapsed.TotalSeconds:N1} s")),
        ]);

    private static Candidate Budget(LoadDiagnosis load)
    {
        var spread = load.ThrottlesOnLongestHeld < OneKeysThrottlesAtLeast;
        var score = Math.Max(load.PacedShare / PacedShareAtLeast, spread ? load.ThrottledShare / ThrottledShareAtLeast : 0);
        var waited = F($"batches waited for the pace {Pct(load.PacedShare)} of their time");
        List<VerdictEvidence> evidence =
        [
            Evidence("pacedShare", load.PacedShare, F($"waits for the pace: {Pct(load.PacedShare)} of the batches' time")),
            Evidence("throttledShare", load.ThrottledShare, F($"throttled answers (429, 503): {Pct(load.ThrottledShare)} of {load.Answers:N0}")),
        ];
        // The rows cap is the pace when no request-unit pace was kept, or when the load ran near it.
        if (load.MaxRowsPerSecond is { } maxRows && (load.PacedRequestUnitsPerSecond is null || load.RowsPerSecond >= 0.8 * maxRows))
        {
            evidence.Add(Evidence("rowsPerSecond", load.RowsPerSecond, F($"rows written per second: {load.RowsPerSecond:N0} against Loader:MaxRowsPerSecond {maxRows:N0}")));
            return new(LimitKind.RequestBudget, score, "Loader:MaxRowsPerSecond",
                F($"it wrote {load.RowsPerSecond:N0} rows/s of the {maxRows:N0} it allows ({Pct(load.RowsPerSecond / maxRows)}), and {waited}"), evidence);
        }

        var delivered = load.RequestUnitsPerSecond;
        if (load.PacedRequestUnitsPerSecond is { } paced)
        {
            evidence.Add(Evidence("pacedRequestUnitsPerSecond", paced, F($"paced at {paced:N0} RU/s{(delivered is { } d ? F($", {d:N0} RU/s delivered ({Pct(d / paced)})") : "")}")));
        }

        if (load.MaxRequestUnitsPerSecond is { } cap && load.PacedRequestUnitsPerSecond is { } atCap && atCap >= cap * 0.999 && load.ThrottledShare < ThrottledShareAtLeast)
        {
            return new(LimitKind.RequestBudget, score, "Loader:MaxRequestUnitsPerSecond",
                F($"it ran at {delivered ?? 0:N0} RU/s of the {cap:N0} it allows ({Pct((delivered ?? 0) / cap)}), and {waited}"), evidence);
        }

        var pace = load.PacedRequestUnitsPerSecond is { } learned
            ? F($", so the load was paced at {learned:N0} RU/s{(delivered is { } got ? F($" and delivered {got:N0} RU/s") : "")}")
            : "";
        return new(LimitKind.RequestBudget, score, "the service's request-unit budget",
            F($"{Pct(load.ThrottledShare)} of its {load.Answers:N0} answers were throttled (429, 503), spread over the partitions{pace}; {waited}"), evidence);
    }

    private static Candidate Slots(LoadDiagnosis load)
    {
        var cores = load.CoresUsed / Math.Max(1, load.Cores);
        var full = F($"requests at the service filled {Pct(load.SlotUse)} of the {load.AllowedConcurrency:N1} batches allowed in flight on average ({load.ConcurrencyMode}, at most {load.MaxParallelBatches})");
        List<VerdictEvidence> evidence =
        [
            Evidence("slotUse", load.SlotUse, F($"slots in use: {load.AverageInFlight:N1} in flight of {load.AllowedConcurrency:N1} allowed on average ({Pct(load.SlotUse)})")),
            Evidence("latencyP50Ms", load.LatencyP50Milliseconds, F($"request latency at the median: {load.LatencyP50Milliseconds:N1} ms")),
            Evidence("coresUsed", load.CoresUsed, F($"cores the process kept busy: {load.CoresUsed:N2} of {load.Cores}")),
        ];
        if (cores >= CoresUsedAtLeast)
        {
            return new(LimitKind.LoaderCpu, load.SlotUse / SlotUseAtLeast, "the loader's CPU",
                F($"the process kept {load.CoresUsed:N1} of its {load.Cores} cores busy while {full}, so its requests waited for the loader's own CPU"), evidence);
        }

        var more = load.AllowedConcurrency >= 0.9 * load.MaxParallelBatches ? "; a higher Loader:MaxParallelBatches may go faster if the service takes it" : "";
        return new(LimitKind.ServiceLatency, load.SlotUse / SlotUseAtLeast, "the service's latency at the concurrency allowed",
            F($"{full}, each request taking {load.LatencyP50Milliseconds:N0} ms at the median{more}"), evidence);
    }

    private static Candidate HotPartition(LoadDiagnosis load)
    {
        var key = load.LongestHeld!;
        return new(LimitKind.HotPartition, load.HeldShare / HeldShareAtLeast, "one hot partition",
            F($"partition '{key.PartitionKey}' ({key.Rows:N0} rows in {key.Batches:N0} batches, {key.Throttled:N0} throttled) had a batch at the service or backing off {Pct(load.HeldShare)} of the load's time, and a partition's batches go one after another"),
            [
                Evidence("heldShare", load.HeldShare, F($"partition '{key.PartitionKey}' at the service or backing off: {Pct(load.HeldShare)} of the load's time")),
                Evidence("partitionRows", key.Rows, F($"its rows: {key.Rows:N0} in {key.Batches:N0} batches")),
                Evidence("partitionThrottled", key.Throttled, F($"its throttled answers: {key.Throttled:N0} of the load's {load.Throttled:N0}")),
                Evidence("slotUse", load.SlotUse, F($"slots in use meanwhile: {load.AverageInFlight:N1} in flight of {load.AllowedConcurrency:N1} allowed on average ({Pct(load.SlotUse)})")),
            ]);
    }

    private static Candidate Input(LoadDiagnosis load)
    {
        List<VerdictEvidence> evidence =
        [
            Evidence("readerBusy", load.ReaderBusy, F($"the read thread worked {Pct(load.ReaderBusy)} of the load's time")),
            Evidence("inputShare", load.InputShare, F($"of that, waiting for the input's bytes and decompressing: {Pct(load.InputShare)}")),
        ];
        if (load.InputMiBPerSecond is { } rate)
        {
            evidence.Add(Evidence("inputMiBPerSecond", rate, F($"the input as stored came at {rate:N1} MiB/s while waited for")));
        }

        var medium = load.InputMedium ?? "the input";
        var decompressing = load.InputCompressed ? F($" and {Pct(Share(load.InputDecompressing, load.ReaderWorking))} decompressing") : "";
        return new(LimitKind.Input, Math.Min(load.ReaderBusy / ThreadBusyAtLeast, load.InputShare / InputShareAtLeast), "reading the input",
            F($"the read thread worked {Pct(load.ReaderBusy)} of the time, {Pct(Share(load.InputReading, load.ReaderWorking))} of it waiting for the bytes of {medium}{decompressing}"), evidence);
    }

    /// <summary>
    /// The loader's own work: the read thread parsing and mapping rows, or waiting for the stages after it while the
    /// service's slots stood free (by now no limit of the service's explains the wait: the batch and dispatch stages'
    /// own work did); the batch thread; or the process keeping nearly every core busy.
    /// </summary>
    private static Candidate Cpu(LoadDiagnosis load)
    {
        var cores = load.CoresUsed / Math.Max(1, load.Cores);
        var working = Share(load.ReaderWorking - load.InputReading - load.InputDecompressing, load.Elapsed);
        var held = Share(load.Times.ReaderBlocked, load.Elapsed) * (1 - Math.Min(1, load.SlotUse));
        var pipeline = Math.Min(1, working + held);
        List<VerdictEvidence> evidence =
        [
            Evidence("readerWorking", working, F($"the read thread parsed and mapped rows {Pct(working)} of the load's time")),
            Evidence("readerWaiting", Share(load.Times.ReaderBlocked, load.Elapsed), F($"it waited for the batch and dispatch stages {Pct(Share(load.Times.ReaderBlocked, load.Elapsed))}, while requests at the service filled {Pct(load.SlotUse)} of the slots")),
            Evidence("batcherBusy", load.BatcherBusy, F($"the batch thread worked {Pct(load.BatcherBusy)} of the load's time")),
            Evidence("coresUsed", load.CoresUsed, F($"cores the process kept busy: {load.CoresUsed:N2} of {load.Cores}")),
        ];
        var scores = new[] { pipeline / ThreadBusyAtLeast, load.BatcherBusy / ThreadBusyAtLeast, cores / CoresUsedAtLeast };
        var busiest = Array.IndexOf(scores, scores.Max());
        var details = busiest switch
        {
            0 when held >= 0.05 => F($"the read thread parsed and mapped rows {Pct(working)} of the time and waited {Pct(held)} more for the batch and dispatch stages' own work, the service's slots standing free"),
            0 => F($"the read thread (parsing, typing and mapping rows) worked {Pct(working)} of the time"),
            1 => F($"the batch thread (grouping rows by partition key) worked {Pct(load.BatcherBusy)} of the time"),
            _ => F($"the process kept {load.CoresUsed:N1} of its {load.Cores} cores busy"),
        };
        if (busiest != 2)
        {
            details += F($"; the process kept {load.CoresUsed:N1} of its {load.Cores} cores busy");
        }

        return new(LimitKind.LoaderCpu, scores.Max(), "the loader's CPU", details, evidence);
    }

    /// <summary>A share as a person writes it: 93%, 4.5%.</summary>
    private static string Pct(double share) =>
        (share * 100).ToString(Math.Abs(share) < 0.1 && share != 0 ? "0.#" : "0", s_invariant) + "%";

    private static VerdictEvidence Evidence(string name, double value, string says) =>
        new(name, double.IsFinite(value) ? Math.Round(value, 4) : 0, says);

    private static double Share(TimeSpan part, TimeSpan whole) => whole > TimeSpan.Zero ? Math.Max(0, part / whole) : 0;

    private static string F(FormattableString text) => text.ToString(s_invariant);

    /// <summary>A limit, how far it went towards its threshold, and what the verdict would say of it.</summary>
    private sealed record Candidate(LimitKind Kind, double Score, string Lead, string Details, IReadOnlyList<VerdictEvidence> Evidence);
}
