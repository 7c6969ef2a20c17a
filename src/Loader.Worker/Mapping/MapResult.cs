using Loader.Abstractions;

namespace Loader.Worker.Mapping;

/// <summary>A record mapped to an entity, or the reason it cannot be, with the record's text for the rejects file.</summary>
public readonly record struct MapResult(LoadEntity? Entity, RowOrigin Origin, string? RejectReason, string? RecordText)
{
    public static MapResult Accept(LoadEntity entity) => new(entity, entity.Origin, null, null);

    public static MapResult Reject(RowOrigin origin, string reason, string recordText) => new(null, origin, reason, recordText);
}
