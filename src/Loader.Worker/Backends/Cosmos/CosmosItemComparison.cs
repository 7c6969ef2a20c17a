using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Whether a stored item is a row as <see cref="CosmosItemJson"/> writes it: every member of the row's JSON with an equal
/// value (numbers by value, so 1.0 is 1), and no member besides them but the service's own (<c>_rid</c>, <c>_self</c>,
/// <c>_etag</c>, <c>_attachments</c>, <c>_ts</c>).
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

        var differing = new List<string>();
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var member in written.EnumerateObject())
        {
            names.Add(member.Name);
            if (!item.TryGetProperty(member.Name, out var value) || !JsonElement.DeepEquals(member.Value, value))
            {
                differing.Add(member.Name);
            }
        }

        foreach (var member in item.EnumerateObject())
        {
            if (!names.Contains(member.Name) && !CosmosLimits.SystemPropertyNames.Contains(member.Name))
            {
                differing.Add(member.Name);
            }
        }

        return differing.Count == 0 ? StoredState.Equal : StoredState.Differs(differing);
    }
}
