using Loader.Abstractions;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Verify;

namespace Loader.Worker.Tests.Verify;

/// <summary>The external sort: rows of any order come out by partition key, row key and place, whether they fit in one run, spill to files, or take merge rounds.</summary>
public sealed class RowSorterTests : IDisposable
{
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static List<VerifyRow> Rows(int count)
    {
        var random = new Random(9);
        return [.. Enumerable.Range(1, count).Select(i => new VerifyRow(
            new LoadEntity(
                $"p{random.Next(5)}",
                $"r{random.Next(count / 3)}",
                [
                    EntityProperty.FromString("s", $"text {i} ✈"),
                    EntityProperty.FromInt32("i", i),
                    EntityProperty.FromInt64("l", i * 10_000_000_000L),
                    EntityProperty.FromDouble("d", i / 3.0),
                    EntityProperty.FromBoolean("b", i % 2 == 0),
                    EntityProperty.FromDateTime("t", new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddTicks(i)),
                    EntityProperty.FromGuid("g", new Guid(i, 2, 3, [4, 5, 6, 7, 8, 9, 10, 11])),
                    EntityProperty.FromJson("j", $"[{i}]"),
                ],
                new RowOrigin(i, i + 1)),
            i,
            i % 4 == 0,
            i % 3 == 0 ? "part.csv" : null,
            i % 3 == 0 ? i + 7 : 0))];
    }

    [Theory]
    [InlineData(1000, 0)] // one run, in memory
    [InlineData(40, 25)] // spilled, merged at once
    [InlineData(3, 334)] // spilled into more runs than are merged at once: merge rounds
    public void Rows_come_out_by_partition_row_key_and_place_and_decode_as_they_went_in(int rowsPerRun, int spilled)
    {
        var rows = Rows(1000);
        using var sorter = new RowSorter(rowsPerRun, _directory.Path);
        foreach (var row in rows)
        {
            sorter.Add(row);
        }

        var sorted = sorter.Sorted().ToList();

        var expected = rows.OrderBy(row => row.Entity.PartitionKey, StringComparer.Ordinal).ThenBy(row => row.Entity.RowKey, StringComparer.Ordinal).ThenBy(row => row.Sequence).ToList();
        Assert.Equal(expected.Select(row => row.Sequence), sorted.Select(row => row.Sequence));
        Assert.Equal(spilled, sorter.SpilledRuns);
        for (var i = 0; i < expected.Count; i++)
        {
            var decoded = sorted[i].Decode();
            Assert.Equal(expected[i] with { Entity = null! }, decoded with { Entity = null! });
            Assert.Equal((expected[i].Entity.PartitionKey, expected[i].Entity.RowKey, expected[i].Entity.Origin), (decoded.Entity.PartitionKey, decoded.Entity.RowKey, decoded.Entity.Origin));
            Assert.Equal(expected[i].Entity.Properties, decoded.Entity.Properties);
        }
    }

    [Fact]
    public void The_runs_on_disk_are_gone_once_read_and_the_folder_when_the_sorter_is()
    {
        using (var sorter = new RowSorter(10, _directory.Path))
        {
            foreach (var row in Rows(100))
            {
                sorter.Add(row);
            }

            Assert.Single(Directory.GetDirectories(_directory.Path));
            Assert.Equal(100, sorter.Sorted().Count());
            Assert.Empty(Directory.GetFiles(Directory.GetDirectories(_directory.Path)[0]));
        }

        Assert.Empty(Directory.GetDirectories(_directory.Path));
    }
}
