using Loader.Abstractions;

namespace Loader.Worker.Mapping;

/// <summary>A record mapped to an entity, or the reason it cannot be.</summary>
public readonly record struct MapResult(LoadEntity? Entity, string? RejectReason)
{
    public static MapResult Accept(LoadEntity entity) => new(entity, null);

    public static MapResult Reject(string reason) => new(null, reason);
}
