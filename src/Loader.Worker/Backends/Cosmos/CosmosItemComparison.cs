using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Whether a stored item is a row as <see cref="CosmosItemJson"/> writes it: every member of the row's JSON with an equal
/// value (numbers by value, so 1.0 is 1), and no member besides them but the service's own (<c>_rid</c>, <c>_self</c>,
/// <c>_etag</c>, <c>_attachments</c>, <c>_ts</c>). A resumed Insert's conflicts and <c>verify</c> both compare by these rules.
/// </summary>
internal static class CosmosItemComparison
{
    /// <summary>Each row against its stored item (by id), the row as <paramref name="json"/> writes it.</summary>
    public static async Task<StoredState[]> CompareAsync(IReadOnlyList<LoadEntity> entities, CosmosStoredItems stored, CosmosItemJson json, CancellationToken cancellationToken)
    {
        var states = new StoredState[entities.Count];
        for (var i = 0; i < states.Length; i++)
        {
            var entity = entities[i];
            using var written = await JsonDocument.ParseAsync(json.Serialize(entity), cancellationToken: cancellationToken).ConfigureAwait(false);
            states[i] = Compare(written.RootElement, stored.Items.TryGetValue(entity.RowKey, out var item) ? item.Body : null);
        }

        return states;
    }

    public static StoredState Compare(JsonElement written, JsonElement? stored)
    {
        if (stored is not { } item)
        {
            return StoredState.Missing;
        }

        var (differing, _) = Differences(written, item, othersAllowed: false);
        return differing.Count == 0 ? StoredState.Equal : StoredState.Differs(differing);
    }

    /// <summary>The members in which <paramref name="stored"/> differs from the row's JSON, the row's first, and the first of them with both values.</summary>
    /// <param name="written">The row as the load writes it.</param>
    /// <param name="stored">The item as the service holds it.</param>
    /// <param name="othersAllowed">Members the row does not write are no difference, in nested objects too (Merge).</param>
    public static (List<string> Names, PropertyDifference? First) Differences(JsonElement written, JsonElement stored, bool othersAllowed)
    {
        var differing = new List<string>();
        PropertyDifference? first = null;
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var member in written.EnumerateObject())
        {
            names.Add(member.Name);
            var found = stored.TryGetProperty(member.Name, out var value);
            if (!found || !(othersAllowed ? Holds(value, member.Value) : JsonElement.DeepEquals(member.Value, value)))
            {
                differing.Add(member.Name);
                first ??= new PropertyDifference(member.Name, member.Value.GetRawText(), found ? value.GetRawText() : null);
            }
        }

        if (othersAllowed)
        {
            return (differing, first);
        }

        foreach (var member in stored.EnumerateObject())
        {
            if (!names.Contains(member.Name) && !CosmosLimits.SystemPropertyNames.Contains(member.Name))
            {
                differing.Add(member.Name);
                first ??= new PropertyDifference(member.Name, null, member.Value.GetRawText());
            }
        }

        return (differing, first);
    }

    /// <summary>Whether <paramref name="stored"/> holds <paramref name="written"/>: equal, or an object with at least its members, each holding the written one's.</summary>
    private static bool Holds(JsonElement stored, JsonElement written) =>
        written.ValueKind == JsonValueKind.Object && stored.ValueKind == JsonValueKind.Object
            ? written.EnumerateObject().All(member => stored.TryGetProperty(member.Name, out var value) && Holds(value, member.Value))
            : JsonElement.DeepEquals(written, stored);
}
