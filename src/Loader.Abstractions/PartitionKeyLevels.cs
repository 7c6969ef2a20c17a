using System.Text.Encodings.Web;
using System.Text.Json;

namespace Loader.Abstractions;

/// <summary>
/// A hierarchical partition key (Cosmos DB: up to three levels, e.g. tenant, user, session) travels through the
/// pipeline as one string, so that batches, the estimate's census and shards group by the full key with no change:
/// the levels joined by <see cref="Separator"/> (U+001F, the unit separator, made for this). A value of one level
/// is its own text, as before. A level holding the separator itself is refused by the mapper, so the join is never ambiguous.
/// </summary>
public static class PartitionKeyLevels
{
    public const char Separator = '\u001F';

    private static readonly JsonSerializerOptions s_display = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static bool IsHierarchical(string key) => key.Contains(Separator, StringComparison.Ordinal);

    /// <summary>The levels of <paramref name="key"/>, in order; one level for a key of one.</summary>
    public static string[] Split(string key) => key.Split(Separator);

    public static string Join(ReadOnlySpan<string> levels) => string.Join(Separator, levels);

    /// <summary>
    /// The key as people read it: a key of one level as it is, a hierarchical key as the JSON array the service and its
    /// SDK show (<c>["JFK","LAX"]</c>).
    /// </summary>
    public static string Display(string key) => IsHierarchical(key) ? JsonSerializer.Serialize(Split(key), s_display) : key;
}
