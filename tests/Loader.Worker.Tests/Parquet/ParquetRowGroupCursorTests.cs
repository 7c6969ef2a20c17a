using Azure;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Parquet;
using Loader.Worker.Records;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Parquet;

/// <summary>
/// A row group read a batch at a time, as the load reads it: the same cells as the group read whole, across pages and
/// dictionary pages, after rows passed over, and while the next batch is read; a failed read of the storage is that
/// failure, not damage.
/// </summary>
public sealed class ParquetRowGroupCursorTests : IDisposable
{
    // Several pages per column chunk (DuckDB writes a page per 100,000 or so values), with a null every 7th row, text of
    // few values (a dictionary page) and of many (plain pages), and a list.
    private const int Rows = 250_000;

    private const string Select =
        "SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE i * 3 END AS n, 'code-' || (i % 40) AS code, " +
        "CASE WHEN i % 11 = 0 THEN NULL ELSE 'unique-' || i END AS label, [i % 5, i % 3] AS pair FROM range(250000) t(i)";

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _folder = new();

    private async Task<string> WriteAsync()
    {
        var path = _folder.File("pages.parquet");
        await DuckDbParquet.WriteAsync(path, Rows, Select, _cancellation);
        return path;
    }

    private static Task<ParquetFileReader> OpenAsync(Stream stream) => ParquetTestFile.OpenAsync(stream, "pages.parquet");

    private static string Text(TypedField cell) => cell.HasValue ? TypedText.Of(cell.Property) : "(null)";

    [Fact]
    public async Task Batches_read_the_cells_the_whole_group_holds_across_its_pages_with_rows_passed_over_between()
    {
        var path = await WriteAsync();

        // The whole group from a reader of its own: a file's column buffers are shared by its row groups' reads.
        await using var wholeReader = await OpenAsync(File.OpenRead(path));
        using var whole = wholeReader.ReadRowGroup(0);
        await using var reader = await OpenAsync(File.OpenRead(path));
        Assert.Equal(1, reader.RowGroupCount);
        using var cursor = reader.OpenRowGroup(0);
        var row = 0;
        var sizes = new[] { 4096, 1, 70_000, 333, 4096 };
        for (var step = 0; cursor.Remaining > 0; step++)
        {
            var size = sizes[step % sizes.Length];
            if (step % 3 == 2)
            {
                cursor.Skip(size);
                row += Math.Min(size, Rows - row);
                continue;
            }

            var batch = cursor.Read(size);
            Assert.Equal(row, batch.FirstRow);
            Assert.Equal(row + 1, batch.FirstRecord);
            for (var i = 0; i < batch.RowCount; i++)
            {
                for (var column = 0; column < batch.ColumnCount; column++)
                {
                    Assert.Equal(Text(whole.Cell(column, row + i)), Text(batch.Cell(column, i)));
                }
            }

            row += batch.RowCount;
        }

        Assert.Equal(Rows, row);
        Assert.Equal("(null)", Text(whole.Cell(1, 7)));
        Assert.Equal("code-39", Text(whole.Cell(2, 39)));
        Assert.Equal("unique-249999", Text(whole.Cell(3, Rows - 1)));
        Assert.Equal("[4,0]", Text(whole.Cell(4, Rows - 1)));
    }

    /// <summary>The load maps one batch while the next is decoded: a batch's cells must not change under it.</summary>
    [Fact]
    public async Task A_batch_reads_the_same_while_the_next_one_is_read()
    {
        var path = await WriteAsync();
        await using var reader = await OpenAsync(File.OpenRead(path));
        using var cursor = reader.OpenRowGroup(0);

        var first = cursor.Read(4096);
        var before = Enumerable.Range(0, first.RowCount).Select(row => string.Join('|', Enumerable.Range(0, first.ColumnCount).Select(column => Text(first.Cell(column, row))))).ToList();
        var second = cursor.Read(4096);

        Assert.Equal(before, Enumerable.Range(0, first.RowCount).Select(row => string.Join('|', Enumerable.Range(0, first.ColumnCount).Select(column => Text(first.Cell(column, row))))));
        Assert.Equal("4096", Text(second.Cell(0, 0)));
        Assert.Equal("0", Text(first.Cell(0, 0)));
    }

    /// <summary>A file's column buffers go on from one row group to the next: the last batch of a group is mapped while the next group's first is read.</summary>
    [Fact]
    public async Task A_group_s_last_batch_reads_the_same_while_the_next_group_s_first_is_read()
    {
        var path = _folder.File("groups.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 10, rowGroupSize: 4, _cancellation);
        await using var reader = await ParquetTestFile.OpenAsync(path);

        // Three reads, so the group ends in the buffer a fresh start would read into first.
        using var first = reader.OpenRowGroup(0);
        first.Read(1);
        first.Read(1);
        var last = first.Read(2);
        var before = Enumerable.Range(0, last.ColumnCount).Select(column => Text(last.Cell(column, 1))).ToList();
        using var second = reader.OpenRowGroup(1);
        var next = second.Read(2);

        Assert.Equal(before, Enumerable.Range(0, last.ColumnCount).Select(column => Text(last.Cell(column, 1))));
        Assert.Equal("4", Text(last.Cell(0, 1)));
        Assert.Equal("5", Text(next.Cell(0, 0)));
    }

    [Fact]
    public async Task Text_shares_one_string_per_value_across_batches()
    {
        var path = await WriteAsync();
        await using var reader = await OpenAsync(File.OpenRead(path));
        using var cursor = reader.OpenRowGroup(0);

        var early = cursor.Read(4096).Cell(2, 5).Property.AsString();
        cursor.Skip(100_000);
        var later = cursor.Read(4096);

        // Row i of the later batch is id FirstRow + i, of code id % 40.
        var again = ((5 - (later.FirstRow % 40)) + 40) % 40;
        Assert.Equal("code-5", early);
        Assert.Same(early, later.Cell(2, again).Property.AsString());
    }

    /// <summary>
    /// The page reader is native code and hands a failure of the stream under it back as its own error: the load must
    /// still see a failed read (retried, or stopping the load as an input failure), not a damaged file.
    /// </summary>
    [Fact]
    public async Task A_read_the_storage_fails_is_thrown_as_that_failure_not_as_damage()
    {
        var path = await WriteAsync();
        var stream = new FailingStream(File.OpenRead(path));
        await using var reader = await OpenAsync(stream);

        stream.Fail = true;
        var failure = Assert.Throws<RequestFailedException>(() =>
        {
            using var cursor = reader.OpenRowGroup(0);
            cursor.Read(Rows);
        });

        Assert.Equal(503, failure.Status);
    }

    [Fact]
    public async Task Damage_in_a_later_batch_names_the_row_group_and_the_column()
    {
        var (corrupted, _) = await ParquetTestFile.WriteDamagedRowGroup2Async(_folder.File("damaged.parquet"), _cancellation);
        await using var reader = await ParquetTestFile.OpenAsync(corrupted, "damaged.parquet");

        using (var first = reader.OpenRowGroup(0))
        {
            Assert.Equal(4, first.Read(4).Cell(0, 3).Property.AsInt32());
        }

        var failure = Assert.Throws<DamagedInputException>(() =>
        {
            using var second = reader.OpenRowGroup(1);
            second.Read(4);
        });
        Assert.StartsWith("'damaged.parquet' row group 2 of 3 (rows 5 to 8) cannot be read: column '", failure.Message);
    }

    public void Dispose() => _folder.Dispose();

    /// <summary>A file whose reads fail as a blob's do when the service refuses them (503), once told to.</summary>
    private sealed class FailingStream(Stream inner) : Stream
    {
        public bool Fail { get; set; }

        public override bool CanRead => true;

        public override bool CanSeek => true;

        public override bool CanWrite => false;

        public override long Length => inner.Length;

        public override long Position { get => inner.Position; set => inner.Position = value; }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer) => Fail ? throw new RequestFailedException(503, "Server Busy") : inner.Read(buffer);

        public override long Seek(long offset, SeekOrigin origin) => inner.Seek(offset, origin);

        public override void Flush()
        {
        }

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}
