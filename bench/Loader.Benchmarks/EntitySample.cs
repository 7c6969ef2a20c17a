using Azure.Data.Tables;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// A few entities read back from a table, each as its keys and its properties' names, types and values: two writers
/// of the same rows compare equal only when they wrote the same properties with the same types.
/// </summary>
internal static class EntitySample
{
    /// <summary>Entities read back per table: the first in key order, the same keys in both tables when both hold the same rows.</summary>
    public const int Size = 5;

    public static async Task<IReadOnlyList<string>> ReadAsync(string connectionString, string table, CancellationToken cancellationToken)
    {
        var client = new TableClient(connectionString, table);
        var sample = new List<string>();
        await foreach (var entity in client.QueryAsync<TableEntity>(maxPerPage: Size, cancellationToken: cancellationToken))
        {
            sample.Add(Describe(entity));
            if (sample.Count == Size)
            {
                break;
            }
        }

        return sample;
    }

    /// <summary>The first difference between two samples, or null when they are the same.</summary>
    public static string? Difference(IReadOnlyList<string> expected, IReadOnlyList<string> actual)
    {
        for (var i = 0; i < Math.Max(expected.Count, actual.Count); i++)
        {
            var (left, right) = (i < expected.Count ? expected[i] : "(none)", i < actual.Count ? actual[i] : "(none)");
            if (left != right)
            {
                return $"the loader wrote {left}, the Node SDK {right}";
            }
        }

        return null;
    }

    private static string Describe(TableEntity entity) =>
        $"{entity.PartitionKey}/{entity.RowKey} {{ " + string.Join(", ", entity.Keys
            .Where(name => name is not ("PartitionKey" or "RowKey" or "Timestamp" or "odata.etag"))
            .Order(StringComparer.Ordinal)
            .Select(name => Invariant($"{name}: {entity[name]?.GetType().Name} {entity[name]}"))) + " }";
}
