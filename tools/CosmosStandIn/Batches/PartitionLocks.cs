namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Serialises the batches of one logical partition, as the service runs a partition's writes on its primary
/// replica one at a time: a batch's check of the stored items and its writes see no other batch in between.
/// Striped (a fixed set of locks chosen by hash), so millions of partition keys cost no memory; two keys that
/// share a stripe only wait for each other.
/// </summary>
public sealed class PartitionLocks
{
    private readonly SemaphoreSlim[] _stripes = Enumerable.Range(0, 256).Select(_ => new SemaphoreSlim(1, 1)).ToArray();

    public async Task<IDisposable> EnterAsync(string container, string partitionKeyJson, CancellationToken cancellationToken)
    {
        var stripe = _stripes[(int)((uint)HashCode.Combine(container, partitionKeyJson) % (uint)_stripes.Length)];
        await stripe.WaitAsync(cancellationToken).ConfigureAwait(false);
        return new Release(stripe);
    }

    private sealed class Release(SemaphoreSlim stripe) : IDisposable
    {
        private int _released;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
            {
                stripe.Release();
            }
        }
    }
}
