using System.Text.Json;
using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Shards;

/// <summary>
/// The state folder of a sharded load (<c>Loader:Shards:State</c>): <c>manifest.json</c>, and per shard
/// <c>shards/&lt;id&gt;/</c> with <c>state.json</c> (leased by the worker on the shard), <c>checkpoint.json</c>,
/// <c>report.json</c> and <c>rejects.csv</c>. Manifest and states are created only where none exists, so two
/// planners never overwrite each other; a state is changed only under its lease or its last ETag.
/// </summary>
internal sealed class ShardStateStore
{
    private readonly BlobContainerClient _container;
    private readonly BlobAddress _address;
    private readonly string _urlWithoutQuery;
    private readonly Redaction _redaction;

    /// <param name="blobs">Signs in to the folder's account.</param>
    /// <param name="state">The folder's URL (<c>Loader:Shards:State</c>).</param>
    /// <param name="redaction">What the manifest and the states go through as they are written.</param>
    public ShardStateStore(BlobClientFactory blobs, string state, Redaction redaction)
    {
        if (!BlobAddress.TryParse(state, out var address, out var error) || !address.Path.EndsWith('/'))
        {
            throw new FormatException(error ?? $"'{address!.Display}' is not a folder: a state folder's URL ends with /.");
        }

        _address = address;
        _redaction = redaction;
        _container = blobs.For(address);
        _urlWithoutQuery = state.Split('?')[0].TrimEnd('/') + "/";
    }

    /// <summary>The folder as logs name it.</summary>
    public string Display => _address.Display;

    /// <summary>The URL of a file in the folder, with the folder's signature if it has one: a setting of a shard's pipeline.</summary>
    public string UrlOf(string relative) =>
        _urlWithoutQuery + relative + (_address.SharedAccessSignature is { } signature ? "?" + signature : "");

    public static string ManifestName => "manifest.json";

    public static string CheckpointOf(string shard) => $"shards/{shard}/checkpoint.json";

    public static string ReportOf(string shard) => $"shards/{shard}/report.json";

    public static string RejectsOf(string shard) => $"shards/{shard}/rejects.csv";

    private static string StateOf(string shard) => $"shards/{shard}/state.json";

    public async Task<LoadManifest?> ReadManifestAsync(CancellationToken cancellationToken) =>
        (await ReadAsync<LoadManifest>(ManifestName, cancellationToken).ConfigureAwait(false)).Value;

    /// <summary>Stores the manifest unless one is there already (another planner's); true when this one was stored.</summary>
    public Task<bool> TryCreateManifestAsync(LoadManifest manifest, CancellationToken cancellationToken) =>
        TryCreateAsync(ManifestName, manifest, cancellationToken);

    /// <summary>A shard's state, its ETag, and whether a worker's lease on it is live now; a null state when it has none yet.</summary>
    public async Task<StoredShardState> ReadStateAsync(string shard, CancellationToken cancellationToken)
    {
        var (state, properties) = await ReadAsync<ShardState>(StateOf(shard), cancellationToken).ConfigureAwait(false);
        return new StoredShardState(state, properties?.ETag ?? default, properties?.LeaseState == LeaseState.Leased);
    }

    /// <summary>Stores a shard's first state unless it has one; true when this one was stored.</summary>
    public Task<bool> TryCreateStateAsync(ShardState state, CancellationToken cancellationToken) =>
        TryCreateAsync(StateOf(state.Shard), state, cancellationToken);

    /// <summary>Replaces a shard's state under the worker's lease, or (with no lease) only if it is still at <paramref name="ifMatch"/>.</summary>
    /// <exception cref="RequestFailedException">412: the lease was lost, or the state changed since it was read.</exception>
    public async Task WriteStateAsync(ShardState state, string? leaseId, ETag? ifMatch, CancellationToken cancellationToken)
    {
        var conditions = new BlobRequestConditions { LeaseId = leaseId, IfMatch = ifMatch };
        await Blob(StateOf(state.Shard)).UploadAsync(Json(state), new BlobUploadOptions { Conditions = conditions, HttpHeaders = JsonHeaders() }, cancellationToken)
            .ConfigureAwait(false);
    }

    /// <summary>The lease a worker holds on a shard's state while it works the shard.</summary>
    public BlobLeaseClient LeaseOf(string shard) => Blob(StateOf(shard)).GetBlobLeaseClient();

    /// <summary>The report of a shard's last run, or null before its first.</summary>
    public async Task<LoadReport?> ReadReportAsync(string shard, CancellationToken cancellationToken) =>
        (await ReadAsync<LoadReport>(ReportOf(shard), cancellationToken).ConfigureAwait(false)).Value;

    /// <summary>A shard's rejects file as stored, or null when it has none.</summary>
    public async Task<BinaryData?> ReadRejectsAsync(string shard, CancellationToken cancellationToken)
    {
        try
        {
            return (await Blob(RejectsOf(shard)).DownloadContentAsync(cancellationToken).ConfigureAwait(false)).Value.Content;
        }
        catch (RequestFailedException exception) when (exception.Status == 404)
        {
            return null;
        }
    }

    private BlobClient Blob(string relative) => _container.GetBlobClient(_address.Path + relative);

    private async Task<(T? Value, BlobProperties? Properties)> ReadAsync<T>(string relative, CancellationToken cancellationToken)
        where T : class
    {
        BlobDownloadResult download;
        try
        {
            download = (await Blob(relative).DownloadContentAsync(cancellationToken).ConfigureAwait(false)).Value;
        }
        catch (RequestFailedException exception) when (exception.Status == 404)
        {
            return (null, null);
        }

        try
        {
            var value = download.Content.ToObjectFromJson<T>(ReportWriter.JsonOptions) ?? throw new JsonException("it holds null");
            return (value, BlobsModelFactory.BlobProperties(eTag: download.Details.ETag, leaseState: download.Details.LeaseState));
        }
        catch (JsonException exception)
        {
            throw new InvalidDataException($"'{_address.Display}{relative}' is not what a sharded load keeps there: {exception.Message}", exception);
        }
    }

    private async Task<bool> TryCreateAsync<T>(string relative, T value, CancellationToken cancellationToken)
    {
        try
        {
            var options = new BlobUploadOptions { Conditions = new BlobRequestConditions { IfNoneMatch = ETag.All }, HttpHeaders = JsonHeaders() };
            await Blob(relative).UploadAsync(Json(value), options, cancellationToken).ConfigureAwait(false);
            return true;
        }
        catch (RequestFailedException exception) when (exception.Status is 409 or 412)
        {
            return false;
        }
    }

    private BinaryData Json<T>(T value) => RedactedJson.Serialize(value, ReportWriter.JsonOptions, _redaction);

    private static BlobHttpHeaders JsonHeaders() => new() { ContentType = "application/json" };
}

/// <summary>A shard's state as read: null before the plan created it.</summary>
/// <param name="State">The state.</param>
/// <param name="ETag">Its version, for a change made without a lease.</param>
/// <param name="Leased">Whether a worker holds it now.</param>
internal sealed record StoredShardState(ShardState? State, ETag ETag, bool Leased);
