using System.Globalization;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Records;
using Parquet;
using LibraryOptions = Parquet.ParquetOptions;

namespace Loader.Worker.Parquet;

/// <summary>
/// One Parquet file, opened from a seekable stream: its footer read and its columns planned at once, then its row
/// groups read one at a time, by ranges of the stream, so no more than one row group is held. A footer that cannot be
/// read, or a row group whose pages cannot, is a <see cref="DamagedInputException"/> naming the file and the row group:
/// the row groups before it stand, as a compressed CSV's lines before its damage do.
/// </summary>
internal sealed class ParquetFileReader : IAsyncDisposable
{
    private readonly ParquetReader _reader;
    private readonly long[] _firstRecord;
    private readonly ParquetScratch _scratch = new();

    private ParquetFileReader(string name, ParquetReader reader, ParquetColumnPlan plan)
    {
        Name = name;
        _reader = reader;
        Plan = plan;
        var groups = reader.RowGroups;
        _firstRecord = new long[groups.Count + 1];
        _firstRecord[0] = 1;
        for (var group = 0; group < groups.Count; group++)
        {
            _firstRecord[group + 1] = _firstRecord[group] + groups[group].RowCount;
        }
    }

    /// <summary>The file, as messages name it.</summary>
    public string Name { get; }

    public ParquetColumnPlan Plan { get; }

    public int RowGroupCount => _firstRecord.Length - 1;

    /// <summary>Rows in the file, by its footer.</summary>
    public long RowCount => _firstRecord[^1] - 1;

    /// <summary>
    /// Reads the footer of <paramref name="seekable"/> (which the reader then owns) and plans its columns. Throws
    /// <see cref="DamagedInputException"/> when the footer cannot be read, <see cref="InputHeaderException"/> when a
    /// column cannot be written.
    /// </summary>
    public static async Task<ParquetFileReader> OpenAsync(Stream seekable, string name, ParquetDecimalMode decimals, string pathSeparator, CancellationToken cancellationToken, IReadOnlySet<string>? skipped = null)
    {
        ArgumentNullException.ThrowIfNull(seekable);
        ParquetReader reader;
        try
        {
            reader = await ParquetReader.CreateAsync(seekable, ReaderOptions(), leaveStreamOpen: false, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception exception) when (IsDamage(exception, cancellationToken))
        {
            var length = seekable.CanSeek ? seekable.Length : 0;
            await seekable.DisposeAsync().ConfigureAwait(false);
            throw new DamagedInputException(name, Math.Max(0, length - 8), string.Create(CultureInfo.InvariantCulture,
                $"'{name}' cannot be read as Parquet: its footer (the last bytes of its {length:N0}, which locate every row group) is missing or damaged ({Reason(exception)}). No row of it was read."), exception);
        }

        try
        {
            return new ParquetFileReader(name, reader, ParquetColumnPlan.Create(reader.Schema, name, decimals, pathSeparator, skipped));
        }
        catch
        {
            await reader.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>The 1-based record number of the first row of row group <paramref name="group"/> (0-based); one past the last row for <see cref="RowGroupCount"/>.</summary>
    public long FirstRecordOf(int group) => _firstRecord[group];

    /// <summary>The row group (0-based) holding record <paramref name="record"/>; <see cref="RowGroupCount"/> past the last row.</summary>
    public int RowGroupOf(long record)
    {
        var found = Array.BinarySearch(_firstRecord, record);
        return found >= 0 ? Math.Min(found, RowGroupCount) : ~found - 1;
    }

    /// <summary>Where record <paramref name="record"/> (1-based, through the file) stands: its row group and row, 1-based.</summary>
    public ParquetRowPosition Locate(long record)
    {
        var group = Math.Min(RowGroupOf(record), RowGroupCount - 1);
        return new ParquetRowPosition(group + 1, record - _firstRecord[group] + 1);
    }

    /// <summary>The 1-based record number of each row group's first row, and one past the last row at the end.</summary>
    public IReadOnlyList<long> RowGroupStarts => _firstRecord;

    /// <summary>Bytes row group <paramref name="group"/> takes in the file, compressed: what reading it counts towards the input's progress.</summary>
    public long StoredBytesOf(int group)
    {
        var rowGroup = _reader.RowGroups[group].RowGroup;
        return rowGroup.TotalCompressedSize ?? rowGroup.TotalByteSize;
    }

    /// <summary>The byte at which row group <paramref name="group"/>'s data starts in the file.</summary>
    public long OffsetOf(int group)
    {
        var columns = _reader.RowGroups[group].RowGroup.Columns;
        var offsets = columns.Where(chunk => chunk.MetaData is not null).Select(chunk => chunk.MetaData!.DictionaryPageOffset ?? chunk.MetaData!.DataPageOffset).ToList();
        return offsets.Count > 0 ? offsets.Min() : _reader.RowGroups[group].RowGroup.FileOffset ?? 0;
    }

    /// <summary>
    /// Bytes the largest row group's columns hold once read, and its largest column's: what a read budget must allow for
    /// this file's next row group to be read while the last of one is mapped.
    /// </summary>
    public long ReadAheadBytes()
    {
        var most = 0L;
        for (var group = 0; group < RowGroupCount; group++)
        {
            var rows = _firstRecord[group + 1] - _firstRecord[group];
            var columns = Plan.Columns.Select(column => ParquetColumnChunk.EstimateBytes(column, rows)).ToList();
            most = Math.Max(most, columns.Sum() + columns.DefaultIfEmpty().Max());
        }

        return most;
    }

    /// <summary>Reads row group <paramref name="group"/> (0-based) whole; throws <see cref="DamagedInputException"/> naming it when its pages cannot be read.</summary>
    public Task<ParquetRowGroupData> ReadRowGroupAsync(int group, CancellationToken cancellationToken) =>
        ReadRowGroupAsync(group, budget: null, wait: false, cancellationToken);

    /// <summary>
    /// Reads row group <paramref name="group"/> (0-based) whole, its columns' bytes counted in <paramref name="budget"/>;
    /// when <paramref name="wait"/>, each column only once the budget has room for it (a read ahead, while the rows of
    /// the group before are mapped and given back). Throws <see cref="DamagedInputException"/> naming the group when its
    /// pages cannot be read.
    /// </summary>
    public async Task<ParquetRowGroupData> ReadRowGroupAsync(int group, ParquetReadBudget? budget, bool wait, CancellationToken cancellationToken)
    {
        var reader = _reader.OpenRowGroupReader(group);
        var columns = new List<ParquetColumnChunk>(Plan.Columns.Count);
        try
        {
            foreach (var column in Plan.Columns)
            {
                if (budget is not null && wait)
                {
                    // Blocking, not awaited: the read ahead's own thread waits, so the decoding after it stays on that thread
                    // rather than going on on a pool thread beside the mapping's (each thread would keep its own share of
                    // the library's pooled page buffers).
                    budget.WaitForRoomAsync(ParquetColumnChunk.EstimateBytes(column, reader.RowCount), cancellationToken).GetAwaiter().GetResult();
                }

                var chunk = await ParquetColumnChunk.ReadAsync(reader, column, _scratch, cancellationToken).ConfigureAwait(false);
                columns.Add(chunk);
                budget?.Hold(chunk.HeldBytes);
            }

            return new ParquetRowGroupData(group, _firstRecord[group], checked((int)reader.RowCount), [.. columns], budget);
        }
        catch (Exception exception) when (IsDamage(exception, cancellationToken))
        {
            ParquetRowGroupData.Release(columns, budget);
            var column = Plan.Columns[columns.Count].Name;
            throw new DamagedInputException(Name, OffsetOf(group), string.Create(CultureInfo.InvariantCulture,
                $"'{Name}' row group {group + 1} of {RowGroupCount} (rows {_firstRecord[group]:N0} to {_firstRecord[group + 1] - 1:N0}) cannot be read: column '{column}' is damaged ({Reason(exception)}). The row groups before it were read."), exception);
        }
        catch
        {
            ParquetRowGroupData.Release(columns, budget);
            throw;
        }
    }

    public ValueTask DisposeAsync() => _reader.DisposeAsync();

    /// <summary>How the Parquet library is asked to hand values out: every DECIMAL exact (as a big decimal), dates as dates, INT96 as timestamps, bytes as bytes.</summary>
    private static LibraryOptions ReaderOptions() => new()
    {
        UseBigDecimal = true,
        UseDateOnlyTypeForDates = true,
        TreatBigIntegersAsDates = true,
        TreatByteArrayAsString = false,
    };

    // Whatever the library throws on bytes that are not what the footer promised (its own exceptions, bad lengths,
    // a codec's failures): damage. A cancellation, or a failure of the storage under the stream, is not.
    private static bool IsDamage(Exception exception, CancellationToken cancellationToken) =>
        !(exception is OperationCanceledException && cancellationToken.IsCancellationRequested)
        && exception is not (Azure.RequestFailedException or System.Net.Http.HttpRequestException or TimeoutException or OutOfMemoryException)
        && exception.InnerException is not (Azure.RequestFailedException or System.Net.Http.HttpRequestException);

    private static string Reason(Exception exception) => exception.Message.TrimEnd('.');
}
