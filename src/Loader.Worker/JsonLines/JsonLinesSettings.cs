namespace Loader.Worker.JsonLines;

/// <summary>How the JSON Lines reader turns an object into fields, as the load's backend and settings need it.</summary>
/// <param name="PathSeparator">What joins the names of a nested path (<c>customer.id</c>): Cosmos DB's path separator, which nests them again; for Table Storage <c>Loader:Json:FlattenSeparator</c>.</param>
/// <param name="KeepsJson">Whether arrays (and empty objects) are given as JSON, nested where they stand (Cosmos DB); otherwise as their JSON text.</param>
/// <param name="RefuseNested">Whether a nested object or array is refused (<c>Loader:Json:Nested</c> Refuse, Table Storage).</param>
/// <param name="MaxLineBytes">The longest line read (<c>Loader:Csv:MaxRecordBytes</c>); a longer one is rejected.</param>
internal sealed record JsonLinesSettings(string PathSeparator, bool KeepsJson, bool RefuseNested, int MaxLineBytes);
