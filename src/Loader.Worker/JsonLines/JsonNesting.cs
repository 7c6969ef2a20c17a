namespace Loader.Worker.JsonLines;

/// <summary>What Table Storage, whose entities are flat, is given for a nested object or array of JSON Lines (<c>Loader:Json:Nested</c>). Cosmos DB keeps them nested whatever this says.</summary>
internal enum JsonNesting
{
    /// <summary>An object's members become properties named by their path joined with <c>Loader:Json:FlattenSeparator</c> (<c>address_city</c>); an array is one String property holding its JSON text.</summary>
    Flatten,

    /// <summary>A nested object or array stops the load at start when the first object has one (exit 2); a later line with one is rejected, naming the property.</summary>
    Refuse,
}
