namespace Loader.Worker.Backends.Tables;

/// <summary>An entity as read back from the Table service, with typed property values.</summary>
public sealed record TableEntity(
    string PartitionKey,
    string RowKey,
    IReadOnlyDictionary<string, object> Properties,
    DateTimeOffset? Timestamp);
