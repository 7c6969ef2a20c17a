using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;

namespace Loader.Worker.Tests.Checkpoints;

/// <summary>
/// Where a load that keeps a checkpoint starts, decided alone: a real checkpoint file and a real input file, read by the
/// planner as the pipeline would hand them to it.
/// </summary>
public sealed class ResumePlannerTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly TestMeterFactory _meters = new();
    private readonly LoadStatistics _statistics;
    private readonly LoaderOptions _settings;
    private readonly InputSource _source;
    private readonly CheckpointStore _store;

    public ResumePlannerTests()
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

    private ResumePlanner Planner(bool canSkipUnread = true) =>
        new(_settings, canSkipUnread, _statistics, NullLogger<ResumePlanner>.Instance);

    private Checkpoint CheckpointOf(long nextRecord, bool completed = false, LoaderOptions? settings = null) => new()
    {
        NextRecord = nextRecord,
        HighestSent = nextRecord + 1,
        Completed = completed,
        UpdatedAt = DateTimeOffset.UnixEpoch,
        Input = _source.Identify(),
        Settings = IdentifyingSettings.Of(settings ?? _settings),
    };

    private async Task<(ResumePoint Resume, string[] Unread)> PlanAsync(ResumePlanner planner, ICheckpointStore store)
    {
        await using var input = _source.Open(4096);
        using var reader = CsvRecordReader.Open(input, _settings.Csv);
        var resume = await planner.PlanAsync(store, _source, reader, _cancellation);
        return (resume, [.. reader.ReadAll(csv => csv.GetString(1), 1).Select(record => record.Value!)]);
    }

    [Fact]
    public async Task Without_a_checkpoint_the_load_starts_from_the_top_tied_to_its_input_and_settings()
    {
        var (resume, unread) = await PlanAsync(Planner(), _store);

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

        var (resume, unread) = await PlanAsync(Planner(), _store);

        Assert.False(resume.Resumed);
        Assert.Equal(["1", "2", "3", "4", "5"], unread);
    }

    [Fact]
    public async Task A_checkpoint_of_this_load_skips_the_records_it_shows_settled_and_counts_them()
    {
        await _store.WriteAsync(CheckpointOf(4), _cancellation);

        var (resume, unread) = await PlanAsync(Planner(), _store);

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
        await _store.WriteAsync(CheckpointOf(3) with { ReadUpTo = 4, ReadUpToLine = 5, Pending = [[4, 4]] }, _cancellation);

        var (resume, unread) = await PlanAsync(Planner(canSkipUnread: false), _store);

        Assert.Equal(0, resume.SkipRecords);
        Assert.Equal(3, resume.ResumedAt);
        var window = Assert.IsType<ResumeWindow>(resume.Window);
        Assert.Equal(4, window.ReadUpTo);
        Assert.Equal([4L, 4L], Assert.Single(window.Pending));
        Assert.Equal(["1", "2", "3", "4", "5"], unread);
    }

    [Fact]
    public async Task A_checkpoint_of_another_load_is_refused_naming_the_path_and_what_differs()
    {
        var other = new LoaderOptions { Input = _settings.Input, PartitionKey = "{rk}", RowKey = "{pk}", CheckpointPath = _settings.CheckpointPath };
        await _store.WriteAsync(CheckpointOf(4, settings: other), _cancellation);

        var refused = await Assert.ThrowsAsync<CheckpointRefusedException>(() => PlanAsync(Planner(), _store));

        Assert.StartsWith($"Loader:CheckpointPath '{_settings.CheckpointPath}' belongs to another load: ", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Loader:PartitionKey", refused.Message, StringComparison.Ordinal);
        Assert.EndsWith("Delete it or give another path to load from the top.", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_file_that_is_not_a_checkpoint_is_refused()
    {
        await File.WriteAllTextAsync(_settings.CheckpointPath!, "not json", _cancellation);

        var refused = await Assert.ThrowsAsync<CheckpointRefusedException>(() => PlanAsync(Planner(), _store));

        Assert.Contains("is not a loader checkpoint", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_checkpoint_that_cannot_be_read_is_unavailable_naming_the_setting()
    {
        var failure = await Assert.ThrowsAsync<CheckpointUnavailableException>(() => PlanAsync(Planner(), new FailingCheckpointStore()));

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
