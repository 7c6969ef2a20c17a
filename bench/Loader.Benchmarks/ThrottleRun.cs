using Loader.ThrottlingSimulator;
using Loader.Worker.Reporting;

namespace Loader.Benchmarks;

/// <summary>
/// One load through the throttling simulator: what the loader reported, what the simulator counted (the two must
/// agree), what the table held afterwards, and how the pace went over time.
/// </summary>
internal sealed record ThrottleRun
{
    public required string Name { get; init; }

    public required string CommandLine { get; init; }

    public required string LogPath { get; init; }

    public required int ExitCode { get; init; }

    /// <summary>The report's outcome; null when the loader wrote no report.</summary>
    public string? Outcome { get; init; }

    /// <summary>The report's elapsed seconds: from the loader's start to its last answer, .NET start-up left out.</summary>
    public required double Seconds { get; init; }

    /// <summary>The simulator's budget B, in RU/s.</summary>
    public required double Budget { get; init; }

    public required long Expected { get; init; }

    public long RowsWritten { get; init; }

    public long RowsFailed { get; init; }

    /// <summary>Entities a count query found in the table afterwards; null when the table was never created.</summary>
    public long? Stored { get; init; }

    /// <summary>Rows of the input the table does not hold, whether the loader reported them failed or not.</summary>
    public long RowsLost => Expected - (Stored ?? 0);

    /// <summary>What the service's front counted: the throttling simulator, or the Cosmos DB stand-in in its terms.</summary>
    public required SimulatorStatsSnapshot Simulator { get; init; }

    public long? ReportRequests { get; init; }

    public long? ReportThrottled { get; init; }

    public double? ReportRequestCharge { get; init; }

    /// <summary>Request units the service accepted per second over the whole load.</summary>
    public double RequestUnitsPerSecond => Seconds > 0 ? Math.Round(Simulator.RequestChargeTotal / Seconds, 1) : 0;

    public double PercentOfBudget => Math.Round(100 * RequestUnitsPerSecond / Budget, 2);

    /// <summary>429s as a share of the requests the simulator received, in percent.</summary>
    public double ThrottledPercent => Simulator.Requests > 0 ? Math.Round(100.0 * Simulator.Throttled / Simulator.Requests, 2) : 0;

    /// <summary>How many of requests, 429s and request units the report counts differently from the simulator.</summary>
    public int CountsDiffering =>
        (ReportRequests == Simulator.Requests ? 0 : 1)
        + (ReportThrottled == Simulator.Throttled ? 0 : 1)
        + (ReportRequestCharge == Math.Round(Simulator.RequestChargeTotal, 2) ? 0 : 1);

    public ConcurrencyReport? Concurrency { get; init; }

    /// <summary>The request-unit rate the loader paced at in the end; null when unpaced.</summary>
    public double? PacedRequestUnitsPerSecond { get; init; }

    /// <summary>Cores the store's own process kept busy: Azurite, or cosmosdb-server for the Cosmos DB run.</summary>
    public double? StoreCores { get; init; }

    public double? LoaderCores { get; init; }

    /// <summary>Cores this process kept busy: mostly the simulator, which runs in it.</summary>
    public double? SimulatorCores { get; init; }

    /// <summary>About how long each window of <see cref="Windows"/> is.</summary>
    public double WindowSeconds { get; init; }

    public IReadOnlyList<PaceWindow> Windows { get; init; } = [];

    /// <summary>From when on every progress interval delivered at least 90% of the budget with at most 10% of its requests throttled; null if it never held.</summary>
    public double? SettledAfterSeconds { get; init; }

    /// <summary>429s before the pace settled (all of them when it never did).</summary>
    public long ThrottledBeforeSettled { get; init; }

    /// <summary>Why the run measured nothing (the loader crashed, the store could not be counted or failed); null when it is sound.</summary>
    public string? Problem { get; init; }
}
