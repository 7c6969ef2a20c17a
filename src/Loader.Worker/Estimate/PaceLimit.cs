namespace Loader.Worker.Estimate;

/// <summary>What sets the pace of the predicted load.</summary>
internal enum PaceLimit
{
    /// <summary>Nothing was found: the duration is a lower bound.</summary>
    None,

    /// <summary>The service's budget: met by the sample (429s), or the throughput provisioned for the target.</summary>
    ServiceBudget,

    /// <summary>The service's latency knee: more batches in flight only queued longer at the service.</summary>
    ServiceLatency,

    /// <summary>The loader's concurrency: the sample reached <c>Loader:MaxParallelBatches</c> without the service pushing back.</summary>
    Concurrency,

    /// <summary>One partition's rows at what one partition takes outlast the rest of the load.</summary>
    HotPartition,

    /// <summary>A cap the loader was given: <c>Loader:MaxRequestUnitsPerSecond</c> or <c>Loader:MaxRowsPerSecond</c>.</summary>
    LoaderCap,

    /// <summary>A published target of the service (Table Storage's account target).</summary>
    ServiceTarget,
}
