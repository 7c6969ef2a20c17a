namespace Loader.Worker.Configuration;

/// <summary>
/// What the process does: one load (no verb), a part of a sharded load (the verbs <c>plan</c>, <c>work</c>,
/// <c>status</c>, given first on the command line; see docs/scale-out.md), or <c>verify</c> of a load done.
/// </summary>
internal enum LoaderCommand
{
    /// <summary>One load of the whole input by this process.</summary>
    Load,

    /// <summary>Cuts the input into shards, writes the load's manifest and enqueues the shards; run twice, it enqueues nothing new.</summary>
    Plan,

    /// <summary>Takes shards from the queue and loads each until the queue is empty.</summary>
    Work,

    /// <summary>Merges the shards' reports into one report for the whole input.</summary>
    Status,

    /// <summary>Reads the input again and the target back and compares them row by row (docs/verify.md); of a sharded load with its Loader:Shards:State.</summary>
    Verify,
}
