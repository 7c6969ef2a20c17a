namespace Loader.Abstractions;

/// <summary>What an adapter thinks of an entity before it is batched.</summary>
/// <param name="PayloadBytes">Upper bound of the entity's share of a batch request (<see cref="LoadEntity.PayloadBytes"/>).</param>
/// <param name="Violation">Why the service would refuse the entity (naming the column where one is to blame), or null when it is acceptable.</param>
public readonly record struct EntityInspection(int PayloadBytes, string? Violation)
{
    public bool IsValid => Violation is null;
}
