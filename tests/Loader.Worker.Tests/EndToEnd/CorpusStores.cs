using System.Globalization;
using System.Text.Json;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>Where a corpus case is loaded, and how what it stored is read back for comparison.</summary>
public interface ICorpusStore
{
    /// <summary>The backend's settings: endpoint, target, backend.</summary>
    IReadOnlyDictionary<string, string?> Settings();

    /// <summary>Whether the target (table, container) exists.</summary>
    Task<bool> ExistsAsync(CancellationToken cancellationToken);

    /// <summary>The stored entities by (partition key, row key), their properties as .NET values.</summary>
    Task<IReadOnlyDictionary<(string, string), IReadOnlyDictionary<string, object>>> ReadAsync(CancellationToken cancellationToken);

    /// <summary>An expected row's properties (typed as the corpus writes them) the way this store keeps them.</summary>
    IReadOnlyDictionary<string, object> AsStored(IReadOnlyDictionary<string, object> expected);
}

/// <summary>A table on Azurite: typed properties as the Table service keeps them.</summary>
public sealed class TablesCorpusStore(AzuriteFixture azurite, string table) : ICorpusStore
{
    public IReadOnlyDictionary<string, string?> Settings() => new Dictionary<string, string?>
    {
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
    };

    public async Task<bool> ExistsAsync(CancellationToken cancellationToken)
    {
        try
        {
            await azurite.ReadTableAsync(table, cancellationToken);
            return true;
        }
        catch (Azure.RequestFailedException exception) when (exception.Status == 404)
        {
            return false;
        }
    }

    public async Task<IReadOnlyDictionary<(string, string), IReadOnlyDictionary<string, object>>> ReadAsync(CancellationToken cancellationToken) =>
        (await azurite.ReadTableAsync(table, cancellationToken)).ToDictionary(pair => pair.Key, pair => (IReadOnlyDictionary<string, object>)pair.Value.Properties);

    public IReadOnlyDictionary<string, object> AsStored(IReadOnlyDictionary<string, object> expected) => expected;
}

/// <summary>
/// A container behind the Cosmos DB stand-in: JSON items, so numbers come back as Int64 or Double, dates and
/// Guids as the strings the loader writes; <c>id</c> and the partition key property are the keys, not properties.
/// </summary>
public sealed class CosmosCorpusStore(CosmosStandInFixture cosmos, string container, string mode) : ICorpusStore
{
    private const string PartitionKeyProperty = "pk";
    private static readonly HashSet<string> s_keysAndSystem = ["id", PartitionKeyProperty, "_rid", "_self", "_etag", "_ts", "_attachments"];

    public IReadOnlyDictionary<string, string?> Settings() => cosmos.LoaderSettings(container, mode);

    public async Task<bool> ExistsAsync(CancellationToken cancellationToken)
    {
        using var response = await cosmos.Client.GetContainer(CosmosStandInFixture.Database, container).ReadContainerStreamAsync(cancellationToken: cancellationToken);
        return response.IsSuccessStatusCode;
    }

    public async Task<IReadOnlyDictionary<(string, string), IReadOnlyDictionary<string, object>>> ReadAsync(CancellationToken cancellationToken) =>
        (await cosmos.ReadContainerAsync(container, PartitionKeyProperty, cancellationToken)).ToDictionary(
            pair => pair.Key,
            pair => (IReadOnlyDictionary<string, object>)pair.Value.EnumerateObject()
                .Where(member => !s_keysAndSystem.Contains(member.Name))
                .ToDictionary(member => member.Name, member => Value(member.Value), StringComparer.Ordinal));

    public IReadOnlyDictionary<string, object> AsStored(IReadOnlyDictionary<string, object> expected) =>
        expected.Where(pair => !s_keysAndSystem.Contains(pair.Key)).ToDictionary(pair => pair.Key, pair => pair.Value switch
        {
            int number => (object)(long)number,
            double number when number == Math.Floor(number) && Math.Abs(number) < 1e15 => (long)number, // JSON writes 2.0 as 2

            // cosmosdb-server is JavaScript and keeps every number as a double: a 64-bit integer beyond 2^53 comes back
            // rounded. The service keeps 64-bit integers; the stand-in cannot show more than the double.
            long number when number is > 1L << 53 or < -(1L << 53) => (double)number,
            DateTime date => date.ToUniversalTime().ToString("O", CultureInfo.InvariantCulture),
            Guid guid => guid.ToString("D"),
            var value => value,
        }, StringComparer.Ordinal);

    private static object Value(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.String => value.GetString()!,
        JsonValueKind.True => true,
        JsonValueKind.False => false,
        JsonValueKind.Number when value.TryGetInt64(out var integer) => integer,
        JsonValueKind.Number => value.GetDouble(),
        _ => value.GetRawText(),
    };
}
