namespace Loader.Abstractions;

/// <summary>A mapped, validated input row, ready to be written.</summary>
/// <param name="PartitionKey">The partition key rendered from the PartitionKey template.</param>
/// <param name="RowKey">The row key (Cosmos DB: the item id) rendered from the RowKey template.</param>
/// <param name="Properties">The non-empty cells of the row, typed, in column order.</param>
/// <param name="Origin">Where the row came from.</param>
/// <param name="PayloadBytes">The adapter's upper bound for this entity's share of a batch request, used to keep batches within the service's payload limit.</param>
/// <param name="SourceRecord">The record's text as it stood in the input (UTF-8), so a row the service refuses goes to the rejects file as it was.</param>
public sealed record LoadEntity(
    string PartitionKey,
    string RowKey,
    IReadOnlyList<EntityProperty> Properties,
    RowOrigin Origin,
    int PayloadBytes = 0,
    ReadOnlyMemory<byte> SourceRecord = default)
{
    /// <summary>
    /// The properties as a span, walked without an enumerator: a row's properties are walked several times on its way
    /// (its footprint, its body), and an interface's enumerator is an allocation per row each time.
    /// </summary>
    public ReadOnlySpan<EntityProperty> PropertySpan => Properties is EntityProperty[] array ? array : [.. Properties];
}
