using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// Reads the rows of a Parquet input, part by part (a Parquet file cannot be read as one stream with another), row
/// group by row group, and a batch of <see cref="ChunkRows"/> rows at a time: each batch decoded, then its rows mapped
/// on the mapping threads, in order. Memory holds a batch of each column, whatever the row groups' size (a list or map
/// column: its row group). A range shard's part reads the row groups that start within its byte range. Resuming skips
/// whole row groups without reading them, and rows within one without decoding them, unless the fingerprint needs their
/// rows' digests. Records are counted through the parts; messages name a record by row group and row (and its file,
/// when the input has several).
/// </summary>
internal sealed class ParquetRecordReader : IRecordReader
{
    /// <summary>Rows decoded together, then mapped together on the mapping threads and handed on in order.</summary>
    internal const int ChunkRows = 4096;

    private readonly IReadOnlyList<InputPart> _parts;
    private readonly InputLineMap _lines;
    private readonly InputProgress? _progress;
    private readonly int _bufferSize;
    private readonly ParquetDecimalMode _decimals;
    private readonly string _separator;
    private readonly IReadOnlySet<string>? _skipped;
    // Read by Describe on the threads that reject rows while the read thread adds parts.
    private readonly Lock _layoutsLock = new();
    private readonly List<ParquetPartLayout> _layouts = [];
    private int _nextPart;
    private ParquetFileReader? _file;
    private List<int> _groups = [];
    private int _nextGroup;
    private ParquetRowGroupCursor? _current;

    // Rows handed out (mapped or skipped), and rows the decoding has passed: ahead of them by the batches decoded.
    private long _records;
    private long _decoded;

    private ParquetRecordReader(IReadOnlyList<InputPart> parts, InputLineMap lines, InputProgress? progress, int bufferSize, ParquetDecimalMode decimals, string separator, IReadOnlySet<string>? skipped)
    {
        _parts = parts;
        _lines = lines;
        _progress = progress;
        _bufferSize = bufferSize;
        _decimals = decimals;
        _separator = separator;
        _skipped = skipped;
    }

    public IReadOnlyList<string> Columns { get; private set; } = [];

    /// <summary>The first part's columns, which every part must have.</summary>
    public IReadOnlyList<ParquetColumn> Plan { get; private set; } = [];

    public string TextEncoding => "UTF-8";

    /// <summary>Rows read or passed over so far: Parquet has no lines.</summary>
    public long LinesRead => Interlocked.Read(ref _records);

    public long MalformedSkipped => 0;

    public long LastSkippedLine { get; private set; }

    /// <summary>Opens the first part and reads its footer: its columns become the input's.</summary>
    /// <exception cref="InputHeaderException">A column cannot be written, or the input has no part.</exception>
    /// <exception cref="Inputs.Compression.DamagedInputException">The first part's footer cannot be read.</exception>
    public static ParquetRecordReader Open(InputSource source, int bufferSize, ParquetDecimalMode decimals, string separator, IReadOnlySet<string>? skipped = null)
    {
        ArgumentNullException.ThrowIfNull(source);
        if (source.Parts.Count == 0)
        {
            throw new InputHeaderException("the input has no Parquet file");
        }

        var reader = new ParquetRecordReader(source.Parts, source.Lines, source.Progress, bufferSize, decimals, separator, skipped);
        try
        {
            reader.OpenNextPart();
        }
        catch
        {
            reader.Dispose();
            throw;
        }

        reader.Plan = reader._file!.Plan.Columns;
        reader.Columns = reader._file.Plan.Names;
        return reader;
    }

    public long Skip(long records, RecordSequenceHash? fingerprint = null)
    {
        var skipped = 0L;
        var context = fingerprint is null ? null : new ParquetRowContext(Plan);
        while (skipped < records)
        {
            if (_current is null)
            {
                // A whole row group within the skip is passed over unread when no digest of its rows is needed.
                if (fingerprint is null && PeekGroupRows() is { } rows && rows <= records - skipped)
                {
                    PassGroup();
                    skipped += rows;
                    _records += rows;
                    _decoded += rows;
                    continue;
                }

                if (!NextGroup())
                {
                    break;
                }
            }

            var group = _current!;
            var take = (int)Math.Min(Math.Min(group.Remaining, ChunkRows), records - skipped);
            if (fingerprint is null)
            {
                group.Skip(take);
            }
            else
            {
                var batch = group.Read(take);
                for (var first = 0; first < take; first += ParquetRowBlock.Rows)
                {
                    var rows = Math.Min(ParquetRowBlock.Rows, take - first);
                    context!.Block.Load(batch, first, rows);
                    for (var row = 0; row < rows; row++)
                    {
                        fingerprint.Add(context.Digest.Of(context.Block, row));
                    }
                }
            }

            skipped += take;
            _records += take;
            _decoded += take;
            DropGroupWhenRead();
        }

        LastSkippedLine = _records;
        return skipped;
    }

    public IEnumerable<RecordResult<T>> ReadAll<T>(IRecordMapper<T> map, int parallelism)
    {
        ArgumentNullException.ThrowIfNull(map);
        var contexts = new ThreadLocal<ParquetRowContext>(() => new ParquetRowContext(Plan));
        var decoder = new ParquetBatchDecoder(NextBatch);
        try
        {
            var results = new T[ChunkRows];
            while (decoder.Take() is { } batch)
            {
                var count = batch.RowCount;
                var blocks = (count + ParquetRowBlock.Rows - 1) / ParquetRowBlock.Rows;
                if (parallelism <= 1 || blocks == 1)
                {
                    for (var block = 0; block < blocks; block++)
                    {
                        MapBlock(batch, block, map, contexts.Value!, results);
                    }
                }
                else
                {
                    Parallel.For(0, blocks, new ParallelOptions { MaxDegreeOfParallelism = parallelism },
                        block => MapBlock(batch, block, map, contexts.Value!, results));
                }

                Interlocked.Add(ref _records, count);
                for (var i = 0; i < count; i++)
                {
                    yield return new RecordResult<T>(results[i], null);
                }

                Array.Clear(results, 0, count);
            }
        }
        finally
        {
            decoder.Dispose();
            contexts.Dispose();
        }
    }

    /// <summary>Maps block <paramref name="block"/> of the batch's rows (<see cref="ParquetRowBlock.Rows"/> each) into their places in <paramref name="results"/>.</summary>
    private static void MapBlock<T>(ParquetRowBatch batch, int block, IRecordMapper<T> map, ParquetRowContext context, T[] results)
    {
        var first = block * ParquetRowBlock.Rows;
        var rows = Math.Min(ParquetRowBlock.Rows, batch.RowCount - first);
        context.Block.Load(batch, first, rows);
        for (var row = 0; row < rows; row++)
        {
            results[first + row] = map.Map(new ParquetFields(context.Block, row, batch.FirstRecord + first + row, context));
        }
    }

    /// <summary>Decodes the next batch of rows, from the next row group (or part) when this one is read; null at the end.</summary>
    private ParquetRowBatch? NextBatch()
    {
        if (_current is null && !NextGroup())
        {
            return null;
        }

        var batch = _current!.Read(ChunkRows);
        _decoded += batch.RowCount;
        DropGroupWhenRead();
        return batch;
    }

    /// <summary><c>row group 2, row 17</c> (both 1-based), with the file named when the input has several.</summary>
    public string Describe(RowOrigin origin)
    {
        lock (_layoutsLock)
        {
            for (var i = _layouts.Count - 1; i >= 0; i--)
            {
                if (origin.Record >= _layouts[i].LoadFirst)
                {
                    return _layouts[i].Describe(origin.Record, named: _parts.Count > 1);
                }
            }
        }

        return string.Create(CultureInfo.InvariantCulture, $"row {origin.Record}");
    }

    public void Dispose()
    {
        _current?.Dispose();
        _current = null;
        _file?.DisposeAsync().AsTask().GetAwaiter().GetResult();
        _file = null;
    }

    /// <summary>Makes the next row group the current one, read; false at the end of the input.</summary>
    private bool NextGroup()
    {
        while (_file is null || _nextGroup >= _groups.Count)
        {
            if (_nextPart >= _parts.Count)
            {
                return false;
            }

            OpenNextPart();
        }

        var index = _groups[_nextGroup++];
        _current = _file.OpenRowGroup(index);
        _progress?.Add((int)Math.Min(int.MaxValue, _file.StoredBytesOf(index)));
        return true;
    }

    /// <summary>The rows of the next row group when it is in the current part and not read yet; null otherwise.</summary>
    private long? PeekGroupRows()
    {
        if (_file is null || _nextGroup >= _groups.Count)
        {
            if (_nextPart >= _parts.Count)
            {
                return null;
            }

            OpenNextPart();
            if (_nextGroup >= _groups.Count)
            {
                return null;
            }
        }

        var index = _groups[_nextGroup];
        return _file!.FirstRecordOf(index + 1) - _file.FirstRecordOf(index);
    }

    private void PassGroup()
    {
        var index = _groups[_nextGroup++];
        _progress?.Add((int)Math.Min(int.MaxValue, _file!.StoredBytesOf(index)));
    }

    private void DropGroupWhenRead()
    {
        if (_current is not null && _current.Remaining == 0)
        {
            _current.Dispose();
            _current = null;
        }
    }

    private void OpenNextPart()
    {
        var part = _parts[_nextPart++];
        if (part.Compression != InputCompression.None)
        {
            throw new InputRefusedException($"Loader:Input '{part.Name}' is Parquet compressed as {part.Compression}: Parquet compresses inside, and is read from its footer back, so it cannot be decompressed as a stream; load the file as it was written.");
        }

        _file?.DisposeAsync().AsTask().GetAwaiter().GetResult();
        _file = null;
        // Each column's pages are read a buffer at a time, where the reads of the stream land: a read of a blob fetches its
        // buffer's size, and one larger than a column's buffer would be thrown away when the next column is read.
        var readBlock = Math.Min(_bufferSize, ParquetFileReader.PageBufferBytes);
        var file = ParquetFileReader.OpenAsync(part.OpenSeekable(readBlock), part.Name, _decimals, _separator, CancellationToken.None, _skipped, readBlock).GetAwaiter().GetResult();
        _file = file;
        if (Plan.Count > 0 && !file.Plan.Columns.Select(column => (column.Name, column.Type)).SequenceEqual(Plan.Select(column => (column.Name, column.Type))))
        {
            throw new InvalidDataException($"'{part.Name}' has other columns than the input's first file: {Describe(file.Plan.Columns)} against {Describe(Plan)}; every file of a Parquet input must have the same schema.");
        }

        // A range shard reads the row groups whose data starts within its range of the file.
        _groups = [.. Enumerable.Range(0, file.RowGroupCount).Where(group => part is not RangePart range || (file.OffsetOf(group) >= range.Start && file.OffsetOf(group) < range.End))];
        _nextGroup = 0;
        var fileFirst = _groups.Count > 0 ? file.FirstRecordOf(_groups[0]) : 1;
        lock (_layoutsLock)
        {
            _layouts.Add(new ParquetPartLayout(part.Name, _decoded + 1, fileFirst, file.RowGroupStarts));
        }

        // Rejects and verify name a row's file and its number in it by the input's line map, as they do a CSV line's.
        _lines.PartStarts(part.Name, _decoded + 1, fileFirst);
    }

    private static string Describe(IReadOnlyList<ParquetColumn> columns) => string.Join(", ", columns.Select(column => $"{column.Name} {column.Type}"));
}
