using System.Globalization;

namespace Loader.Worker.Parquet;

/// <summary>
/// Where one Parquet part's rows stand among the load's records, kept once the part is read so any of its records can be
/// named by row group and row. A range shard's part holds some of the file's row groups only.
/// </summary>
/// <param name="Name">The file or blob.</param>
/// <param name="LoadFirst">The load's record number of the part's first row read.</param>
/// <param name="FileFirst">That row's record number in the file (1-based, through the file).</param>
/// <param name="GroupStarts">The file's record number of each row group's first row, then one past its last.</param>
internal sealed record ParquetPartLayout(string Name, long LoadFirst, long FileFirst, IReadOnlyList<long> GroupStarts)
{
    /// <summary>Where the load's record <paramref name="record"/> stands in the file.</summary>
    public ParquetRowPosition Locate(long record)
    {
        var fileRecord = FileFirst + (record - LoadFirst);
        var group = 0;
        while (group + 2 < GroupStarts.Count && GroupStarts[group + 1] <= fileRecord)
        {
            group++;
        }

        return new ParquetRowPosition(group + 1, fileRecord - GroupStarts[group] + 1);
    }

    public string Describe(long record, bool named) => named
        ? string.Create(CultureInfo.InvariantCulture, $"'{Name}' {Locate(record)}")
        : Locate(record).ToString();
}
