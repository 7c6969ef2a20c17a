namespace Loader.Worker.Configuration;

/// <summary>How many batches go in flight.</summary>
internal enum ConcurrencyMode
{
    /// <summary>Learned from the service's answers (AIMD), between 1 and MaxParallelBatches; request units paced at the rate learned from 429s.</summary>
    Adaptive,

    /// <summary>Always MaxParallelBatches, no learning: only the configured caps apply.</summary>
    Fixed,
}
