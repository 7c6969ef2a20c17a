using CsvHelper;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;

namespace Loader.Worker.Tests.Outcomes;

/// <summary>How a run whose stages ended concluded: which cause wins when several hold, and what each outcome says.</summary>
public sealed class LoadConclusionTests
{
    private static readonly LoadCounts s_counts = new(
        RowsRead: 1_200, RowsWritten: 1_200, RowsRejected: 0, RowsSuperseded: 0, RowsFailed: 0, RowsSkipped: 0, RowsAlreadyWritten: 0,
        Batches: 12, Requests: 12, Answers: 12, Throttled: 0, Retries: 0, RetryWait: TimeSpan.Zero, InFlight: 0, RequestCharge: null, Elapsed: TimeSpan.FromSeconds(1));

    private static readonly StagesEnd s_readToTheEnd = new(ReachedEnd: true, InputFailure: null, RejectLimitExceeded: false, StopRequested: false);

    private static LoadOutcome Of(StagesEnd end, LoadCounts? counts = null, bool keepsCheckpoint = true) =>
        LoadConclusion.Of(end, counts ?? s_counts, maxRejects: 10, keepsCheckpoint);

    [Fact]
    public void An_input_read_to_its_end_with_every_row_written_completed_with_no_message()
    {
        Assert.Equal(LoadOutcome.Completed, Of(s_readToTheEnd));
    }

    [Fact]
    public void Rows_that_failed_make_it_completed_with_failures_counting_them()
    {
        var outcome = Of(s_readToTheEnd, s_counts with { RowsWritten = 1_197, RowsFailed = 3 });

        Assert.Equal(new LoadOutcome(LoadOutcomeKind.CompletedWithFailures, "3 rows could not be written"), outcome);
    }

    [Fact]
    public void Checkpoints_lost_before_the_end_stop_the_load_whatever_else_held()
    {
        var end = new StagesEnd(false, new IOException("gone"), RejectLimitExceeded: true, StopRequested: true, new CheckpointLoss(TimeSpan.FromSeconds(30), "403 Forbidden"));

        var outcome = Of(end);

        Assert.Equal(LoadOutcomeKind.CheckpointLost, outcome.Kind);
        Assert.StartsWith("no checkpoint could be written for 30 s (403 Forbidden): the load stopped after 1,200 rows", outcome.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_stage_that_failed_on_a_defect_makes_the_load_unexpected_even_when_the_input_was_read_to_its_end()
    {
        var end = s_readToTheEnd with { Defect = new InvalidOperationException("the batcher broke"), CheckpointLost = new CheckpointLoss(TimeSpan.FromSeconds(30), "403") };

        var outcome = Of(end);

        Assert.Equal(new LoadOutcome(LoadOutcomeKind.UnexpectedError, "the load failed unexpectedly after 1,200 rows: InvalidOperationException: the batcher broke"), outcome);
    }

    [Fact]
    public void Checkpoints_lost_after_the_last_row_was_read_do_not_make_the_load_lost()
    {
        var outcome = Of(s_readToTheEnd with { CheckpointLost = new CheckpointLoss(TimeSpan.FromSeconds(30), "403 Forbidden") });

        Assert.Equal(LoadOutcome.Completed, outcome);
    }

    [Theory]
    [InlineData(true, "The checkpoint records them: replace the file and run again with the same checkpoint to resume after them.")]
    [InlineData(false, "Set Loader:CheckpointPath to resume after the rows already written next time.")]
    public void A_damaged_input_says_what_was_loaded_and_how_to_go_on(bool keepsCheckpoint, string howToGoOn)
    {
        var damaged = new DamagedInputException("export.csv.gz", 4_096, "'export.csv.gz' cannot be decompressed: at byte 4,096 (unexpected end).");

        var outcome = Of(new StagesEnd(false, damaged, RejectLimitExceeded: true, StopRequested: false), keepsCheckpoint: keepsCheckpoint);

        Assert.Equal(LoadOutcomeKind.InputDamaged, outcome.Kind);
        Assert.Equal($"the input is damaged, reading stopped after 1,200 rows, which were loaded: {damaged.Message} {howToGoOn}", outcome.Message);
    }

    [Fact]
    public void An_input_the_parser_cannot_read_on_is_a_configuration_problem_and_an_io_failure_an_unavailable_input()
    {
        var unparseable = Of(new StagesEnd(false, new CsvFormatException("a record too long"), false, false));
        var unreadable = Of(new StagesEnd(false, new IOException("connection reset"), false, false));

        Assert.Equal(LoadOutcomeKind.InvalidConfiguration, unparseable.Kind);
        Assert.StartsWith("the input cannot be parsed on after ", unparseable.Message, StringComparison.Ordinal);
        Assert.EndsWith("rows: a record too long", unparseable.Message, StringComparison.Ordinal);
        Assert.Equal(LoadOutcomeKind.Unavailable, unreadable.Kind);
        Assert.EndsWith("rows: connection reset", unreadable.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_part_met_while_reading_that_is_not_what_it_is_read_as_is_a_configuration_problem()
    {
        var notGzip = new InputFormatException("in/2.csv.gz", "Loader:Input: 'in/2.csv.gz' is not gzip: it does not start with gzip's signature (1F 8B).");

        var outcome = Of(new StagesEnd(false, notGzip, false, false));

        Assert.Equal(new LoadOutcome(LoadOutcomeKind.InvalidConfiguration, $"reading stopped after 1,200 rows: {notGzip.Message}"), outcome);
    }

    [Fact]
    public void Too_many_rejects_win_over_a_stop_request()
    {
        var outcome = Of(new StagesEnd(false, null, RejectLimitExceeded: true, StopRequested: true));

        Assert.Equal(new LoadOutcome(LoadOutcomeKind.RejectLimitExceeded, "more than 10 rows rejected (Loader:MaxRejects); the load stopped after 1,200 rows"), outcome);
    }

    [Fact]
    public void A_stop_request_stops_the_load_unless_every_row_was_read_already()
    {
        var stopped = Of(new StagesEnd(false, null, false, StopRequested: true));
        var finished = Of(s_readToTheEnd with { StopRequested = true });

        Assert.Equal(new LoadOutcome(LoadOutcomeKind.Stopped, "stopped on request after 1,200 rows"), stopped);
        Assert.Equal(LoadOutcome.Completed, finished);
    }
}
