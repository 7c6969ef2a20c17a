using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.Tests.Checkpoints;

/// <summary>
/// Where a load that keeps a checkpoint starts, decided alone: a real checkpoint file and a real input file, read by the
/// finder as the pipeline would hand them to it.
/// </summary>
public sealed class ResumePointFinderTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly TestMeterFactory _meters = new();
    private readonly LoadStatistics _statistics;
    private readonly LoaderOptions _settings;
    private readonly InputSource _source;
    private readonly CheckpointStore _store;

    public ResumePointFinderTests()
    {
        _statistics = new LoadStatistics(new LoaderMetrics(_meters), TimeProvider.System);
        var input = _directory.WriteCsv("input.csv", "pk,rk\np,1\np,2\np,3\np,4\np,5\n");
        _settings = new LoaderOptions { Input = input, PartitionKey = "{pk}", RowKey = "{rk}", CheckpointPath = _directory.File("checkpoint.json") };
        _source = new InputSource(input, [new LocalFilePart(input, new FileInfo(input).Length)]);
        _store = CheckpointStore.AtPath(_settings.CheckpointPath);
    }

    public void Dispose()
    {
        _meters.Dispose();
        _directory.Dispose();
    }

    private ResumePointFinder Finder(bool canSkipUnread = true) =>
        new(_settings, canSkipUnread, _statistics, NullLogger<ResumePointFinder>.Instance);

    /// <summary>A checkpoint as the loader writes it: the input's parts, and its fingerprint at the last record it settled.</summary>
    private Checkpoint CheckpointOf(long nextRecord, bool completed = false, LoaderOptions? settings = null) => new()
    {
        NextRecord = nextRecord,
        HighestSent = nextRecord + 1,
        Completed = completed,
        UpdatedAt = DateTimeOffset.UnixEpoch,
        Input = _source.Identify(),
        Parts = InputPartState.Of(_source),
        Prefix = MarksAt(nextRecord - 1),
        Settings = IdentifyingSettings.Of(settings ?? _settings),
    };

    /// <summary>The input's fingerprint after each of <paramref name="records"/> (ascending), as a loader reading it records it.</summary>
    private List<PrefixMark> MarksAt(params long[] records)
    {
        using var input = _source.Open(4096);
        using var reader = CsvRecordReader.Open(input, _settings.Csv);
        var fingerprint = new RecordSequenceHash();
        var marks = new List<PrefixMark>();
        foreach (var record in records.Where(record => record > 0))
        {
            reader.Skip(record - fingerprint.Records, fingerprint);
            marks.Add(new PrefixMark(record, reader.LastSkippedLine, RecordSequenceHash.Text(fingerprint.Current)));
        }

        return marks;
    }

    private async Task<(ResumePoint Resume, string[] Unread)> FindAsync(ResumePointFinder finder, ICheckpointStore store)
    {
        await using var input = _source.Open(4096);
        using var reader = CsvRecordReader.Open(input, _settings.Csv);
        var resume = await finder.FindAsync(store, _source, reader, new RecordSequenceHash(), _cancellation);
        return (resume, [.. reader.ReadAll(csv => csv.GetString(1), 1).Select(record => record.Value!)]);
    }

    [Fact]
    public async Task Without_a_checkpoint_the_load_starts_from_the_top_tied_to_its_input_and_settings()
    {
        var (resume, unread) = await FindAsync(Finder(), _store);

        Assert.False(resume.Resumed);
        Assert.Equal(0, resume.SkipRecords);
        Assert.Equal(_source.Identify(), resume.Input);
        Assert.Equal(IdentifyingSettings.Of(_settings), resume.Settings);
        Assert.Equal(["1", "2", "3", "4", "5"], unread);
        Assert.Equal(0, _statistics.Snapshot().RowsSkipped);
    }

    [Fact]
    public async Task After_a_completed_load_the_next_starts_from_the_top()
    {
        await _store.WriteAsync(CheckpointOf(6, completed: true), _cancellation);

        var (resume, unread) = await FindAsync(Finder(), _store);

        Assert.False(resume.Resumed);
        Assert.Equal(["1", "2", "3", "4", "5"], unread);
    }

    [Fact]
    public async Task A_checkpoint_of_this_load_skips_the_records_it_shows_settled_and_counts_them()
    {
        await _store.WriteAsync(CheckpointOf(4), _cancellation);

        var (resume, unread) = await FindAsync(Finder(), _store);

        Assert.True(resume.Resumed);
        Assert.Equal(3, resume.SkipRecords);
        Assert.Equal(4, resume.ResumedAt);
        Assert.Equal(5, resume.HighestSentBefore);
        Assert.Null(resume.Window);
        Assert.Equal(["4", "5"], unread);
        Assert.Equal(3, _statistics.Snapshot().RowsSkipped);
    }

    [Fact]
    public async Task A_key_shard_reads_every_record_again_and_passes_over_the_settled_ones_as_a_window()
    {
        await _store.WriteAsync(CheckpointOf(3) with { ReadUpTo = 4, ReadUpToLine = 5, Pending = [[4, 4]], Prefix = MarksAt(2, 4) }, _cancellation);

        var (resume, unread) = await FindAsync(Finder(canSkipUnread: false), _store);

        Assert.Equal(0, resume.SkipRecords);
        Assert.Equal(3, resume.ResumedAt);
        var window = Assert.IsType<ResumeWindow>(resume.Window);
        Assert.Equal(4, window.ReadUpTo);
        Assert.Equal([4L, 4L], Assert.Single(window.Pending));
        Assert.Equal(["1", "2", "3", "4", "5"], unread);
        Assert.Equal(2, resume.Check?.NextMark); // the read stage checks every mark as it reads them again
    }

    [Fact]
    public async Task The_records_it_skips_are_checked_against_the_checkpoints_fingerprint_and_the_next_mark_is_left_to_the_read_stage()
    {
        await _store.WriteAsync(CheckpointOf(4) with { ReadUpTo = 5, ReadUpToLine = 6, Pending = [[4, 4]], Prefix = MarksAt(1, 3, 5) }, _cancellation);

        var (resume, unread) = await FindAsync(Finder(), _store);

        Assert.Equal(3, resume.SkipRecords);
        Assert.Equal(MarksAt(3)[0], resume.SkippedTo);
        Assert.Equal(5, resume.Check?.NextMark);
        Assert.Equal(["4", "5"], unread);
    }

    [Fact]
    public async Task A_record_changed_under_the_checkpoint_with_the_size_kept_refuses_it_naming_the_records_and_lines_that_differ()
    {
        await _store.WriteAsync(CheckpointOf(5) with { Prefix = MarksAt(1, 2, 4) }, _cancellation);
        File.WriteAllText(_settings.Input!, "pk,rk\np,1\np,2\np,7\np,4\np,5\n"); // record 3 edited in place

        var refused = await Assert.ThrowsAsync<CheckpointRefusedException>(() => FindAsync(Finder(), _store));

        Assert.StartsWith($"Loader:Input '{_settings.Input}' has changed since the checkpoint at '{_settings.CheckpointPath}' was written: records 3 to 4 (lines 4 to 5 of 'input.csv') are not the ones it settled.", refused.Message, StringComparison.Ordinal);
        Assert.EndsWith("Restore the input, or delete the checkpoint (or give another Loader:CheckpointPath) to load it from the top.", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, _statistics.Snapshot().RowsSkipped);
    }

    [Fact]
    public async Task A_checkpoint_of_an_earlier_version_without_a_fingerprint_resumes_as_before()
    {
        await _store.WriteAsync(CheckpointOf(4) with { Version = 2, Parts = [], Prefix = [] }, _cancellation);

        var (resume, unread) = await FindAsync(Finder(), _store);

        Assert.Equal(3, resume.SkipRecords);
        Assert.Null(resume.Check);
        Assert.Equal(["4", "5"], unread);
    }

    [Fact]
    public async Task A_checkpoint_of_another_load_is_refused_naming_the_path_and_what_differs()
    {
        var other = new LoaderOptions { Input = _settings.Input, PartitionKey = "{rk}", RowKey = "{pk}", CheckpointPath = _settings.CheckpointPath };
        await _store.WriteAsync(CheckpointOf(4, settings: other), _cancellation);

        var refused = await Assert.ThrowsAsync<CheckpointRefusedException>(() => FindAsync(Finder(), _store));

        Assert.StartsWith($"Loader:CheckpointPath '{_settings.CheckpointPath}' belongs to another load: ", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Loader:PartitionKey", refused.Message, StringComparison.Ordinal);
        Assert.EndsWith("Delete it or give another path to load from the top.", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_file_that_is_not_a_checkpoint_is_refused()
    {
        await File.WriteAllTextAsync(_settings.CheckpointPath!, "not json", _cancellation);

        var refused = await Assert.ThrowsAsync<CheckpointRefusedException>(() => FindAsync(Finder(), _store));

        Assert.Contains("is not a loader checkpoint", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_checkpoint_that_cannot_be_read_is_unavailable_naming_the_setting()
    {
        var failure = await Assert.ThrowsAsync<CheckpointUnavailableException>(() => FindAsync(Finder(), new FailingCheckpointStore()));

        Assert.StartsWith($"Loader:CheckpointPath: cannot read '{_settings.CheckpointPath}': ", failure.Message, StringComparison.Ordinal);
        Assert.Contains("disk gone", failure.Message, StringComparison.Ordinal);
    }

    /// <summary>A test double: a store whose storage fails, which a local file cannot be made to do on demand.</summary>
    private sealed class FailingCheckpointStore : ICheckpointStore
    {
        public Task<Checkpoint?> ReadAsync(CancellationToken cancellationToken) => throw new IOException("disk gone");

        public Task WriteAsync(Checkpoint checkpoint, CancellationToken cancellationToken) => throw new IOException("disk gone");
    }
}
