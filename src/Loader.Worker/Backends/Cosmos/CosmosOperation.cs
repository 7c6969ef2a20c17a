using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>What an item operation does to the item with its id; each writer sends every kind its own way.</summary>
internal enum CosmosOperationKind
{
    /// <summary>Create the item; an item with the same id is a conflict (409).</summary>
    Create,

    /// <summary>Create the item, or replace the one with the same id.</summary>
    Upsert,

    /// <summary>Replace the stored item, under its ETag when one is given (412 when it changed since it was read).</summary>
    Replace,

    /// <summary>Delete the item; a missing one is the service's 404. Its body is empty.</summary>
    Delete,

    /// <summary>Set the given properties of the stored item (partial document update); a missing one is the service's 404. Its body is empty.</summary>
    Patch,
}

/// <summary>One item operation of a batch, as <see cref="CosmosOperationBuilder"/> made it from a row: its body is disposed with it.</summary>
/// <param name="Kind">What the operation does.</param>
/// <param name="Id">The item's id (the row key).</param>
/// <param name="Body">The item as JSON.</param>
/// <param name="IfMatchEtag">The ETag the stored item must still have, or null for none.</param>
internal sealed record CosmosOperation(CosmosOperationKind Kind, string Id, Stream Body, string? IfMatchEtag) : IAsyncDisposable
{
    /// <summary>The <c>set</c> operations of a <see cref="CosmosOperationKind.Patch"/>.</summary>
    public IReadOnlyList<PatchOperation> Patch { get; init; } = [];

    public ValueTask DisposeAsync() => Body.DisposeAsync();
}
