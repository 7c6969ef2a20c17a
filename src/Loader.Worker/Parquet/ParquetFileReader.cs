using System.Globalization;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Records;
using Parquet;
using Parquet.Schema;
using LibraryOptions = Parquet.ParquetOptions;
using PageReader = ParquetSharp.ParquetFileReader;

namespace Loader.Worker.Parquet;

/// <summary>
/// One Parquet file, opened from a seekable stream: its footer read and its columns planned at once, then its row
/// groups read one at a time (<see cref="OpenRowGroup"/>), by ranges of the stream, each a batch of rows at a time. Two
/// libraries share the stream: Parquet.Net reads the footer (the schema the plan is made from, the row groups' rows and
/// offsets) and ParquetSharp, Apache Arrow's reader, decodes the pages (a third of Parquet.Net's CPU per row, in native
/// memory the collector never scans; docs/dependencies.md). A footer that cannot be read, or a row group whose pages
/// cannot, is a <see cref="DamagedInputException"/> naming the file and the row group: the row groups before it stand,
/// as a compressed CSV's lines before its damage do.
/// </summary>
internal sealed class ParquetFileReader : IAsyncDisposable
{
    private readonly ParquetSourceStream _source;
    private readonly ParquetReader _reader;
    private readonly PageReader _pages;
    private readonly long[] _firstRecord;
    private readonly Dictionary<DataField, int> _leafIndex;

    // A single-value column's buffers, and a text column's shared strings, kept from row group to row group.
    private readonly Dictionary<int, ParquetValueBuffers> _buffers = [];

    private ParquetFileReader(string name, ParquetSourceStream source, ParquetReader reader, PageReader pages, ParquetSchema schema, ParquetColumnPlan plan)
    {
        Name = name;
        _source = source;
        _reader = reader;
        _pages = pages;
        Plan = plan;
        var groups = reader.RowGroups;
        _firstRecord = new long[groups.Count + 1];
        _firstRecord[0] = 1;
        for (var group = 0; group < groups.Count; group++)
        {
            _firstRecord[group + 1] = _firstRecord[group] + groups[group].RowCount;
        }

        _leafIndex = LeafIndex(name, schema, pages);
    }

    /// <summary>
    /// The most a column's pages are read ahead at a time: each column is read through a buffer of its own (all columns
    /// are read a batch at a time, side by side), so memory holds a buffer per column, not the row group's column chunks.
    /// </summary>
    internal const int PageBufferBytes = 1024 * 1024;

    // The buffers of a wide file share this much: 300 columns read 218 KiB at a time each.
    private const long PageBuffersBytes = 64L * 1024 * 1024;

    private const int LeastPageBufferBytes = 64 * 1024;

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
    /// <param name="seekable">The file.</param>
    /// <param name="name">The file, as messages name it.</param>
    /// <param name="decimals">What DECIMAL columns are written as.</param>
    /// <param name="pathSeparator">Joins a struct's name and its fields'.</param>
    /// <param name="cancellationToken">Stops reading the footer.</param>
    /// <param name="skipped">Columns <c>Loader:SkipColumns</c> leaves out.</param>
    /// <param name="readBlockBytes">The most each read of the stream asks for (<c>Loader:Blob:ReadBlockSize</c>).</param>
    public static async Task<ParquetFileReader> OpenAsync(Stream seekable, string name, ParquetDecimalMode decimals, string pathSeparator, CancellationToken cancellationToken, IReadOnlySet<string>? skipped = null, int readBlockBytes = PageBufferBytes)
    {
        ArgumentNullException.ThrowIfNull(seekable);
        var source = new ParquetSourceStream(seekable);
        ParquetReader? reader = null;
        PageReader? pages = null;
        ParquetSchema schema;
        try
        {
            try
            {
                reader = await ParquetReader.CreateAsync(source, ReaderOptions(), leaveStreamOpen: true, cancellationToken).ConfigureAwait(false);

                // One schema for the plan and the leaves' places: the plan's leaves are found among its fields by reference.
                schema = reader.Schema;
                using var properties = ParquetSharp.ReaderProperties.GetDefaultReaderProperties();
                properties.EnableBufferedStream();

                // A page its writer gave a checksum (Spark's and parquet-mr's do) is checked: a damaged one is damage, not other values.
                properties.EnablePageChecksumVerification();
                properties.BufferSize = PageBuffer(schema.GetDataFields().Length, readBlockBytes);
                pages = new PageReader(source, properties, leaveOpen: true);
            }
            catch (Exception exception) when (IsDamage(exception, cancellationToken))
            {
                source.ThrowIfFailed(); // the storage under the file failed: not damage
                var length = source.CanSeek ? source.Length : 0;
                throw new DamagedInputException(name, Math.Max(0, length - 8), string.Create(CultureInfo.InvariantCulture,
                    $"'{name}' cannot be read as Parquet: its footer (the last bytes of its {length:N0}, which locate every row group) is missing or damaged ({Reason(exception)}). No row of it was read."), exception);
            }

            return new ParquetFileReader(name, source, reader, pages, schema, ParquetColumnPlan.Create(schema, name, decimals, pathSeparator, skipped));
        }
        catch
        {
            pages?.Dispose();
            if (reader is not null)
            {
                await reader.DisposeAsync().ConfigureAwait(false);
            }

            await source.DisposeAsync().ConfigureAwait(false);
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

    /// <summary>The buffer each of <paramref name="leaves"/> columns is read through, no larger than a read of the stream may be.</summary>
    internal static int PageBuffer(int leaves, int readBlockBytes) =>
        (int)Math.Clamp(PageBuffersBytes / Math.Max(1, leaves), LeastPageBufferBytes, Math.Max(LeastPageBufferBytes, Math.Min(readBlockBytes, PageBufferBytes)));

    /// <summary>Opens row group <paramref name="group"/> (0-based) at its first row; throws <see cref="DamagedInputException"/> naming it when its columns cannot be read.</summary>
    public ParquetRowGroupCursor OpenRowGroup(int group)
    {
        var rows = checked((int)(_firstRecord[group + 1] - _firstRecord[group]));
        var column = 0;
        var columns = new List<ParquetColumnCursor>(Plan.Columns.Count);
        ParquetSharp.RowGroupReader? reader = null;
        try
        {
            reader = _pages.RowGroup(group);
            for (; column < Plan.Columns.Count; column++)
            {
                columns.Add(Cursor(reader, Plan.Columns[column], rows));
            }

            return new ParquetRowGroupCursor(this, group, rows, reader, [.. columns]);
        }
        catch (Exception exception)
        {
            foreach (var opened in columns)
            {
                opened.Dispose();
            }

            reader?.Dispose();
            ThrowFailure(group, Math.Min(column, Plan.Columns.Count - 1), exception);
            throw;
        }
    }

    /// <summary>Reads row group <paramref name="group"/> (0-based) whole, as one batch that holds the group until disposed.</summary>
    public ParquetRowBatch ReadRowGroup(int group)
    {
        var cursor = OpenRowGroup(group);
        try
        {
            return cursor.Read(cursor.RowCount, owned: cursor);
        }
        catch
        {
            cursor.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Throws what a failure reading column <paramref name="column"/> of row group <paramref name="group"/> was: the
    /// stream's own failure, or damage naming the group; returns when it was neither (a stop), for the caller to rethrow.
    /// </summary>
    internal void ThrowFailure(int group, int column, Exception exception)
    {
        _source.ThrowIfFailed();
        if (IsDamage(exception, CancellationToken.None))
        {
            throw new DamagedInputException(Name, OffsetOf(group), string.Create(CultureInfo.InvariantCulture,
                $"'{Name}' row group {group + 1} of {RowGroupCount} (rows {_firstRecord[group]:N0} to {_firstRecord[group + 1] - 1:N0}) cannot be read: column '{Plan.Columns[column].Name}' is damaged ({Reason(exception)}). The row groups before it were read."), exception);
        }
    }

    private ParquetColumnCursor Cursor(ParquetSharp.RowGroupReader group, ParquetColumn column, int rows)
    {
        if (column.Unread)
        {
            return new ParquetUnreadCursor();
        }

        if (column.Nested is not null)
        {
            return new ParquetNestedCursor(column, leaf => Open(group, leaf), rows);
        }

        var (reader, type, values) = Open(group, column);
        try
        {
            if (values != rows)
            {
                throw new InvalidDataException(string.Create(CultureInfo.InvariantCulture, $"column '{column.Name}' has {values:N0} values for {rows:N0} rows"));
            }

            if (!_buffers.TryGetValue(type.Index, out var buffers))
            {
                _buffers[type.Index] = buffers = new ParquetValueBuffers(reader, type, new ParquetTextTable());
            }

            return new ParquetValueCursor(reader, buffers);
        }
        catch
        {
            reader.Dispose();
            throw;
        }
    }

    /// <summary>
    /// The page reader of <paramref name="column"/>'s leaf in <paramref name="group"/>, with the leaf's stored type and
    /// the values (levels, nulls included) the group holds of it, by its metadata.
    /// </summary>
    private (ParquetSharp.ColumnReader Reader, ParquetLeafType Leaf, long Values) Open(ParquetSharp.RowGroupReader group, ParquetColumn column)
    {
        var index = _leafIndex[column.Leaf];
        var reader = group.Column(index);
        try
        {
            var leaf = ParquetLeafType.Of(column, index, reader.ColumnDescriptor);
            ParquetValueConverter.Check(leaf);
            using var metadata = group.MetaData.GetColumnChunkMetaData(index);
            return (reader, leaf, metadata.NumValues);
        }
        catch
        {
            reader.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Each leaf of the footer's schema by its place among the page reader's columns: both read the same schema in the
    /// same order; should they differ, the file is not read rather than read into the wrong columns.
    /// </summary>
    private static Dictionary<DataField, int> LeafIndex(string name, ParquetSchema schema, PageReader pages)
    {
        var leaves = schema.GetDataFields();
        using var metadata = pages.FileMetaData;
        var described = metadata.Schema;
        if (leaves.Length != described.NumColumns)
        {
            throw new InvalidDataException($"'{name}': the footer's schema reads as {leaves.Length} leaf columns by one reader and {described.NumColumns} by the other");
        }

        var index = new Dictionary<DataField, int>(ReferenceEqualityComparer.Instance);
        for (var i = 0; i < leaves.Length; i++)
        {
            using var path = described.Column(i).Path;
            var expected = string.Join('.', leaves[i].Path.ToList());
            if (path.ToDotString() != expected)
            {
                throw new InvalidDataException($"'{name}': leaf column {i + 1} is '{expected}' by one reader and '{path.ToDotString()}' by the other");
            }

            index[leaves[i]] = i;
        }

        return index;
    }

    public async ValueTask DisposeAsync()
    {
        _pages.Dispose();
        await _reader.DisposeAsync().ConfigureAwait(false);
        await _source.DisposeAsync().ConfigureAwait(false);
    }

    /// <summary>How the Parquet library is asked to hand values out: every DECIMAL exact (as a big decimal), dates as dates, INT96 as timestamps, bytes as bytes.</summary>
    private static LibraryOptions ReaderOptions() => new()
    {
        UseBigDecimal = true,
        UseDateOnlyTypeForDates = true,
        TreatBigIntegersAsDates = true,
        TreatByteArrayAsString = false,
    };

    // Whatever the libraries throw on bytes that are not what the footer promised (their own exceptions, bad lengths,
    // a codec's failures): damage. A cancellation, or a failure of the storage under the stream, is not.
    private static bool IsDamage(Exception exception, CancellationToken cancellationToken) =>
        !(exception is OperationCanceledException && cancellationToken.IsCancellationRequested)
        && exception is not (Azure.RequestFailedException or System.Net.Http.HttpRequestException or TimeoutException or OutOfMemoryException)
        && exception.InnerException is not (Azure.RequestFailedException or System.Net.Http.HttpRequestException);

    private static string Reason(Exception exception) => exception.Message.TrimEnd('.');
}
