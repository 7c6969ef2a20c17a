using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>Where and how the Cosmos DB for NoSQL backend writes (<c>Loader:Cosmos</c>).</summary>
internal sealed class CosmosOptions
{
    /// <summary><c>AccountEndpoint=https://...;AccountKey=...;</c> Used when <see cref="Endpoint"/> is empty.</summary>
    [Accepts("a Cosmos DB connection string (AccountEndpoint=...;AccountKey=...;); this or Endpoint is required for the Cosmos backend")]
    public string? ConnectionString { get; set; }

    /// <summary>Account endpoint, e.g. <c>https://account.documents.azure.com:443/</c>, reached with <c>DefaultAzureCredential</c>.</summary>
    [Accepts("an https URL of the account; this or ConnectionString is required for the Cosmos backend")]
    public string? Endpoint { get; set; }

    /// <summary>The database of the target container.</summary>
    [Accepts("a database name; required for the Cosmos backend")]
    public string Database { get; set; } = "";

    /// <summary>The target container.</summary>
    [Accepts("a container name; required for the Cosmos backend")]
    public string Container { get; set; } = "";

    /// <summary>
    /// Path of the partition key property; the PartitionKey template's value is written there. A top-level property, or
    /// a nested one (<c>/customer/id</c>). For a hierarchical key, see <see cref="PartitionKeyPaths"/>.
    /// </summary>
    [Accepts("/ and a property name, nested with more /name, e.g. /pk or /customer/id")]
    public string PartitionKeyPath { get; set; } = "/pk";

    /// <summary>
    /// A hierarchical partition key: one to three paths in order, separated by commas (<c>/tenantId,/userId,/sessionId</c>),
    /// each top-level or nested. Loader:PartitionKey then holds one template per path, separated by commas in the same
    /// order (<c>{tenant},{user},{session}</c>). Empty: the key is the one path of PartitionKeyPath.
    /// </summary>
    [Accepts("one to three paths separated by commas, each as PartitionKeyPath takes it, e.g. /tenantId,/userId; optional (PartitionKeyPath when empty)")]
    public string? PartitionKeyPaths { get; set; }

    /// <summary>
    /// Text in a column name that nests it: the column <c>address.city</c> is written as <c>{"address":{"city":...}}</c>,
    /// and <c>customer.id</c> names the value at the partition key path <c>/customer/id</c>.
    /// </summary>
    [Accepts("one or more characters, no whitespace, e.g. . or __")]
    public string PathSeparator { get; set; } = ".";

    /// <summary>How batches are sent.</summary>
    public CosmosWriteMethod Mode { get; set; } = CosmosWriteMethod.TransactionalBatch;

    /// <summary>How the SDK reaches the service.</summary>
    public CosmosConnectionMode ConnectionMode { get; set; } = CosmosConnectionMode.Direct;

    /// <summary>Create the database and container when missing (needs control-plane rights: keys, not the data-plane role).</summary>
    public bool CreateIfMissing { get; set; }

    /// <summary>Manual throughput (RU/s) of a container this loader creates.</summary>
    // The service's minimum for a container's manual throughput; its ceiling (1,000,000 RU/s by default) is a quota an
    // account can have raised, so it is left to the service. Unset: none.
    [Range(400, int.MaxValue)]
    public int? Throughput { get; set; }

    /// <summary>Autoscale maximum throughput (RU/s) of a container this loader creates; wins over <see cref="Throughput"/>.</summary>
    // The service's minimum autoscale maximum; its ceiling is the account's quota, left to the service. Unset: none.
    [Range(1000, int.MaxValue)]
    public int? AutoscaleMaxThroughput { get; set; }

    /// <summary>
    /// Priority of every request the load sends (priority-based execution, which must be enabled on the account): Low
    /// requests are throttled first when the container is busy, so a bulk load yields to the live traffic. Set on the
    /// client, so it holds in Bulk mode too. Unset: the account's default priority.
    /// </summary>
    public CosmosPriorityLevel? PriorityLevel { get; set; }

    /// <summary>
    /// Throughput bucket (1 to 5) every request of the load names: the account's bucket settings cap the share of
    /// the container's throughput it may spend; over it the service answers 429 with sub-status 3212. Unset: none.
    /// </summary>
    // The service numbers its throughput buckets 1 to 5 and refuses any other.
    [Range(1, 5)]
    public int? ThroughputBucket { get; set; }

    /// <summary>
    /// Time to live in seconds written as <c>ttl</c> on every item; -1: never expires. The container must have time
    /// to live enabled (a default time to live), or the service ignores it. Unset: no <c>ttl</c> is written.
    /// </summary>
    // -1 or 1..int.MaxValue; 0 the service refuses (checked by CosmosOptionsValidator, as a range cannot skip it).
    [Range(-1, int.MaxValue)]
    public int? TimeToLive { get; set; }

    /// <summary>
    /// A column whose cell is each item's time to live in seconds (-1: never expires), written as <c>ttl</c> in place of
    /// the column; an empty cell writes none. A cell that is not such a number is a reject. Not with <see cref="TimeToLive"/>.
    /// </summary>
    [Accepts("a column name of the input; optional")]
    public string? TimeToLiveColumn { get; set; }

    /// <summary>Accept the emulator's self-signed certificate. Honoured only for local hosts (localhost, 127.0.0.1, ::1).</summary>
    public bool TrustEmulatorCertificate { get; set; }

    /// <summary>The partition key's paths in order: those of <see cref="PartitionKeyPaths"/> when set, else <see cref="PartitionKeyPath"/>; only those that parse.</summary>
    public IReadOnlyList<CosmosKeyPath> KeyPaths => CosmosKeyPath.ParseList(string.IsNullOrWhiteSpace(PartitionKeyPaths) ? PartitionKeyPath : PartitionKeyPaths);
}

/// <summary>How batches are sent to Cosmos DB.</summary>
internal enum CosmosWriteMethod
{
    /// <summary>One atomic transactional batch per partition batch (up to 100 items, 2 MB, one logical partition).</summary>
    TransactionalBatch,

    /// <summary>Point operations packed by the SDK per physical partition (AllowBulkExecution); not atomic.</summary>
    Bulk,
}

/// <summary>The priority level of a load's requests (priority-based execution).</summary>
internal enum CosmosPriorityLevel
{
    /// <summary>Throttled last when the container is busy.</summary>
    High,

    /// <summary>Throttled first when the container is busy: a load that must not slow the live traffic.</summary>
    Low,
}

/// <summary>How the SDK reaches the service.</summary>
internal enum CosmosConnectionMode
{
    /// <summary>TCP straight to the replicas: lowest latency, the default for bulk work.</summary>
    Direct,

    /// <summary>HTTPS through the gateway: through firewalls, and the only mode of the Linux emulator.</summary>
    Gateway,
}
