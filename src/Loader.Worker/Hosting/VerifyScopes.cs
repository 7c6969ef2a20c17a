using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Security;
using Loader.Worker.Shards;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Verify;

namespace Loader.Worker.Hosting;

/// <summary>
/// What <c>verify</c> reads, from the settings: a load's input with its rejects file (<c>Loader:RejectsPath</c>), or a
/// sharded load's (<c>Loader:Shards:State</c>) from its manifest: every range shard's share of the input with that
/// shard's rejects, or, for shards by key (each of which read the whole input), the input once with every shard's
/// rejects. Composed here, since verify and the shards sit side by side and use neither the other.
/// </summary>
internal static class VerifyScopes
{
    /// <returns>The shares to read, and the number of shards (null for a load).</returns>
    /// <exception cref="InvalidDataException">No load is planned there, or its plan is of another input or other settings.</exception>
    public static async Task<(IReadOnlyList<VerifyScope> Scopes, int? Shards)> OfAsync(
        LoaderOptions settings, InputOpener inputs, BlobClientFactory blobs, Redaction redaction, CancellationToken cancellationToken)
    {
        if (string.IsNullOrWhiteSpace(settings.Shards.State))
        {
            return ([new VerifyScope(null, string.IsNullOrWhiteSpace(settings.RejectsPath) ? [] : [settings.RejectsPath])], null);
        }

        var store = new ShardStateStore(blobs, settings.Shards.State, redaction);
        var manifest = await store.ReadManifestAsync(cancellationToken).ConfigureAwait(false)
            ?? throw new InvalidDataException($"No load is planned in Loader:Shards:State '{store.Display}': verify checks the shards of a planned load.");
        var source = await inputs.OpenAsync(settings.Input, settings.Csv.Compression, cancellationToken, settings.Format).ConfigureAwait(false);
        if (LoadIdentity.Mismatch(manifest.InputIdentity, manifest.Settings, source.Identify(), ShardedLoad.Identity(settings), "the load was planned") is { } mismatch)
        {
            throw new InvalidDataException($"Loader:Shards:State '{store.Display}' holds the plan of another load: {mismatch}. Verify with the settings the load was planned with.");
        }

        string RejectsOf(ShardSpec shard) => store.UrlOf(ShardStateStore.RejectsOf(shard.Id));
        IReadOnlyList<VerifyScope> scopes = manifest.By == ShardKind.Key
            ? [new VerifyScope(null, [.. manifest.Shards.Select(RejectsOf)])]
            : [.. manifest.Shards.Select(shard => new VerifyScope(new ShardScope(manifest, shard), [RejectsOf(shard)]))];
        return (scopes, manifest.Shards.Count);
    }
}
