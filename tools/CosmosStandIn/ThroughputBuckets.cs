using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// The throughput bucket a request names in <c>x-ms-cosmos-throughput-bucket</c> (the SDK's
/// <c>CosmosClientOptions.ThroughputBucket</c>): the service knows buckets 1 to 5 and refuses any other.
/// </summary>
internal static class ThroughputBuckets
{
    public const string Header = "x-ms-cosmos-throughput-bucket";

    /// <summary>The bucket named, or null when none is.</summary>
    public static string? Of(HttpRequest request) =>
        request.Headers[Header].ToString() is { Length: > 0 } bucket ? bucket : null;

    /// <summary>Why the bucket named is not one the service knows; null when it is, or none is named.</summary>
    public static string? Problem(HttpRequest request) =>
        Of(request) is { } bucket && !(int.TryParse(bucket, out var id) && id is >= 1 and <= 5)
            ? $"The throughput bucket '{bucket}' is not valid: buckets are numbered 1 to 5."
            : null;
}
