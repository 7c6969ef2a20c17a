namespace Loader.Worker.Batching;

/// <summary>The memory rows may hold while they wait in partial batches when <c>Loader:MaxBufferedBytes</c> is not set.</summary>
internal static class BufferBudget
{
    /// <summary>
    /// What the estimate (<see cref="EntityFootprint"/>) may reach: enough for a thousand partition keys of 20-column rows
    /// to fill their batches, and a peak resident size of about 256 MiB, since the garbage collector lets the heap grow
    /// to a few times the rows it keeps alive.
    /// </summary>
    public const long DefaultBytes = 32L * 1024 * 1024;

    /// <summary>The budget for a process that may use <paramref name="availableBytes"/> of memory (a container's limit, or the machine's).</summary>
    public static long For(long availableBytes) => Math.Max(1024L * 1024, Math.Min(DefaultBytes, availableBytes / 16));

    /// <summary>The budget for this process, from what the garbage collector says it may use.</summary>
    public static long ForThisProcess() => For(GC.GetGCMemoryInfo().TotalAvailableMemoryBytes);
}
