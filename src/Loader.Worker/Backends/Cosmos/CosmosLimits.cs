using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>Cosmos DB for NoSQL limits (see the service limits reference); named once here.</summary>
internal static class CosmosLimits
{
    public const int MaxOperationsPerBatch = 100;

    /// <summary>A transactional batch request is at most 2 MB; the SDK's binary framing adds to the JSON sizes counted here.</summary>
    public const long MaxBatchPayloadBytes = 1_800_000;

    public const int MaxItemBytes = 2 * 1024 * 1024;

    public const int MaxIdLength = 255;

    /// <summary>A partial document update (patch) holds at most 10 operations, and a patch of a missing item is a 404.</summary>
    public const int MaxPatchOperations = 10;

    /// <summary>Partition key values are at most 2 KiB (large partition keys, the default for new containers); held to each level of a hierarchical key.</summary>
    public const int MaxPartitionKeyBytes = 2048;

    /// <summary>A hierarchical partition key (MultiHash) has at most three levels.</summary>
    public const int MaxPartitionKeyPaths = 3;

    /// <summary>Per-operation framing in a batch request, beyond the item's JSON.</summary>
    public const int OperationOverheadBytes = 64;

    /// <summary>Properties the service owns; a column with one of these names feeds templates but is not written.</summary>
    public static readonly IReadOnlySet<string> SystemPropertyNames =
        new HashSet<string>(["id", "_rid", "_self", "_etag", "_attachments", "_ts"], StringComparer.Ordinal);

    /// <summary>
    /// What a batch may hold and the names a column feeds templates with but is not written as: the service's own and the
    /// partition key paths (<c>customer.id</c> for <c>/customer/id</c>), whose values come from the key's templates.
    /// </summary>
    public static BackendLimits Of(IReadOnlyList<CosmosKeyPath> keyPaths, string pathSeparator) =>
        new(MaxOperationsPerBatch, MaxBatchPayloadBytes)
        {
            SystemPropertyNames = new HashSet<string>(SystemPropertyNames.Concat(keyPaths.Select(path => path.ColumnName(pathSeparator))), StringComparer.Ordinal),
            PropertyPathSeparator = pathSeparator,
        };
}
