namespace Loader.Worker.Records;

/// <summary>What a field of a record holds, as its format says it: CSV has text only; JSON also numbers, booleans and nested JSON.</summary>
internal enum FieldKind
{
    /// <summary>Text, typed by <c>Loader:Columns</c> (a String otherwise).</summary>
    Text,

    /// <summary>A JSON number, as written: an Int64 when integral and in range, a Double otherwise, unless <c>Loader:Columns</c> types it.</summary>
    Number,

    /// <summary>A JSON <c>true</c> or <c>false</c>.</summary>
    Boolean,

    /// <summary>A JSON array or object, as JSON text: written as a document's nested value where the store keeps them.</summary>
    Json,
}
