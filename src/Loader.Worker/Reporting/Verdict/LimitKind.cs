namespace Loader.Worker.Reporting.Verdict;

/// <summary>What limited a load, as the report's verdict names it (<see cref="LoadVerdict"/> chooses).</summary>
internal enum LimitKind
{
    /// <summary>Nothing was read: there was no load to be limited.</summary>
    Undetermined,

    /// <summary>Attempts that failed with transient faults (5xx, timeouts, dropped connections) and the waits before retrying them.</summary>
    FaultRetries,

    /// <summary>A request budget: the service's request units (its 429s, or the pace learned from them), or the load's own cap (<c>Loader:MaxRequestUnitsPerSecond</c>, <c>Loader:MaxRowsPerSecond</c>).</summary>
    RequestBudget,

    /// <summary>The service's latency at the concurrency the loader allowed: the slots stayed full.</summary>
    ServiceLatency,

    /// <summary>One partition key whose batches, which go one after another, held the load.</summary>
    HotPartition,

    /// <summary>Reading the input: waiting for its bytes (a disk, a blob download, a pipe) and decompressing them.</summary>
    Input,

    /// <summary>The loader's CPU: its read or batch thread saturated, or the process using nearly every core.</summary>
    LoaderCpu,
}
