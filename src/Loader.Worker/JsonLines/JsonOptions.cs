using Loader.Abstractions;

namespace Loader.Worker.JsonLines;

/// <summary>How JSON Lines input becomes entities (<c>Loader:Json</c>).</summary>
internal sealed class JsonOptions
{
    /// <summary>
    /// Table Storage only: <c>Flatten</c> writes a nested object's members as properties named by their path
    /// (<c>address_city</c>) and an array as its JSON text in one String property; <c>Refuse</c> stops the load at start when
    /// the first object nests (exit 2) and rejects a later line that does. Cosmos DB keeps objects and arrays as they are.
    /// </summary>
    public JsonNesting Nested { get; set; } = JsonNesting.Flatten;

    /// <summary>
    /// Table Storage only: what joins the names of a flattened path (<c>address</c> and <c>city</c> into <c>address_city</c>);
    /// templates and <c>Loader:Columns</c> name flattened properties so. Cosmos DB joins paths with <c>Loader:Cosmos:PathSeparator</c>.
    /// </summary>
    [Accepts("one or more letters, digits or '_' (a Table property name holds nothing else)")]
    public string FlattenSeparator { get; set; } = "_";
}
