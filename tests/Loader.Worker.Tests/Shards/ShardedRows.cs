using System.Globalization;
using System.Text;
using Loader.Worker.Shards;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Shards;

/// <summary>
/// The rows of a skewed flights input as a plan of range shards divides them, read from the parts' bytes at the
/// manifest's offsets, and what the table may hold after the load: for every key, the last row of a shard that has it.
/// </summary>
internal sealed class ShardedRows
{
    private readonly Dictionary<string, List<((string, string) Key, ExpectedFlight Flight)>> _byShard;

    private ShardedRows(Dictionary<string, List<((string, string), ExpectedFlight)>> byShard) => _byShard = byShard;

    public long Rows => _byShard.Values.Sum(rows => rows.Count);

    public static ShardedRows Of(IReadOnlyList<(string Name, byte[] Bytes)> parts, LoadManifest manifest)
    {
        var byShard = new Dictionary<string, List<((string, string), ExpectedFlight)>>();
        foreach (var shard in manifest.Shards)
        {
            var bytes = parts.Single(part => part.Name == shard.Part).Bytes;
            var text = Encoding.UTF8.GetString(bytes, (int)shard.Start, (int)(shard.End - shard.Start));
            var lines = text.Split('\n', StringSplitOptions.RemoveEmptyEntries).Skip(shard.Start == 0 ? 1 : 0);
            byShard[shard.Id] = [.. lines.Select(Parse)];
        }

        return new ShardedRows(byShard);
    }

    public long RowsOf(string shard) => _byShard[shard].Count;

    /// <summary>Rows of the shard that repeat an earlier row's key in it.</summary>
    public long DuplicateRowsOf(string shard) => _byShard[shard].Count - _byShard[shard].Select(row => row.Key).Distinct().Count();

    /// <summary>How many of the shard's keys the table holds.</summary>
    public long StoredOf(string shard, IReadOnlyDictionary<(string, string), StoredEntity> stored) =>
        _byShard[shard].Select(row => row.Key).Distinct().Count(stored.ContainsKey);

    /// <summary>
    /// Fails unless the table holds exactly the input's keys, each with its shard's last row (one of them, for a key
    /// with rows in several shards); returns how many keys have rows in several shards.
    /// </summary>
    public int AssertTableHolds(IReadOnlyDictionary<(string, string), StoredEntity> stored)
    {
        var lastPerShard = new Dictionary<(string, string), Dictionary<string, ExpectedFlight>>();
        foreach (var (shard, rows) in _byShard)
        {
            foreach (var (key, flight) in rows)
            {
                if (!lastPerShard.TryGetValue(key, out var shards))
                {
                    lastPerShard[key] = shards = [];
                }

                shards[shard] = flight;
            }
        }

        Assert.Equal(lastPerShard.Count, stored.Count);
        foreach (var (key, shards) in lastPerShard)
        {
            Assert.True(stored.TryGetValue(key, out var entity), $"the row keyed {key} is missing");
            var value = new ExpectedFlight((int)entity.Properties["distance"], (string)entity.Properties["tail"]);
            Assert.True(shards.ContainsValue(value), $"the row keyed {key} holds {value}, not the last row of a shard that has it ({string.Join(", ", shards)})");
        }

        return lastPerShard.Values.Count(shards => shards.Count > 1);
    }

    private static ((string, string), ExpectedFlight) Parse(string line)
    {
        var cells = line.Split(',');
        return ((cells[6], $"{cells[0]}-{cells[1]}-{cells[2]}-{cells[3]}-{cells[4]}"), new ExpectedFlight(int.Parse(cells[9], CultureInfo.InvariantCulture), cells[11]));
    }
}
