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

    public async Task<IDisposable> EnterAsync(string container, string partitionKey, CancellationToken cancellationToken)
    {
        var stripe = _stripes[Stripe(container, partitionKey)];
        await stripe.WaitAsync(cancellationToken).ConfigureAwait(false);
        return new Release([stripe]);
    }

    /// <summary>
    /// The locks of several logical partitions at once (a bulk request's), taken in stripe order, so two requests
    /// that need some of the same never wait for each other in a circle.
    /// </summary>
    public async Task<IDisposable> EnterAllAsync(string container, IEnumerable<string> partitionKeys, CancellationToken cancellationToken)
    {
        var stripes = partitionKeys.Select(key => Stripe(container, key)).Distinct().Order().Select(index => _stripes[index]).ToList();
        var held = new List<SemaphoreSlim>(stripes.Count);
        try
        {
            foreach (var stripe in stripes)
            {
                await stripe.WaitAsync(cancellationToken).ConfigureAwait(false);
                held.Add(stripe);
            }
        }
        catch
        {
            new Release(held).Dispose();
            throw;
        }

        return new Release(held);
    }

    private int Stripe(string container, string partitionKey) =>
        (int)((uint)HashCode.Combine(container, partitionKey) % (uint)_stripes.Length);

    private sealed class Release(IReadOnlyList<SemaphoreSlim> stripes) : IDisposable
    {
        private int _released;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
            {
                foreach (var stripe in stripes)
                {
                    stripe.Release();
                }
            }
        }
    }
}
