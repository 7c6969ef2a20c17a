using Azure;
using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Shards;
using Loader.Worker.Shards.Work;
using Loader.Worker.Tests.Reporting.Html;

namespace Loader.Worker.Tests.Shards.Work;

/// <summary>
/// What a worker does with a shard's message at each step, decided alone: every row of the table, from what the worker
/// knows at that step (the message's takes, the shard's state, the lease, how the run ended) to what it records and what
/// becomes of the message and the lease. No queue, blob or clock: the worker carries the decisions out, which the
/// sharded end-to-end tests (<see cref="ShardedLoadTests"/>) cover.
/// </summary>
public sealed class ShardTransitionsTests
{
    private const string LoadId = "load-1";
    private const string Worker = "host/42";
    private static readonly DateTimeOffset s_now = new(2026, 3, 4, 5, 6, 7, TimeSpan.Zero);
    private static readonly DateTimeOffset s_earlier = s_now.AddMinutes(-10);
    private static readonly ETag s_etag = new("\"0x8D1\"");
    private static readonly ShardSpec s_spec = new() { Id = "s0002", Part = "flights.csv" };
    private static readonly ShardOptions s_shards = new() { MaxDequeues = 3, RetryDelay = TimeSpan.FromSeconds(30), VisibilityTimeout = TimeSpan.FromMinutes(2) };

    private static ReceivedShard Message(long dequeueCount, string id = "m-1", string? text = null) =>
        new(id, "pop", dequeueCount, text ?? new ShardMessage(LoadId, s_spec.Id).ToText());

    private static ShardState State(ShardStatus status, string? messageId = "m-1") => new()
    {
        LoadId = LoadId,
        Shard = s_spec.Id,
        Status = status,
        Enqueued = true,
        MessageId = messageId,
        Attempts = 1,
        Worker = "other/7",
        FirstStartedAt = s_earlier,
        StartedAt = s_earlier,
        FinishedAt = s_earlier.AddMinutes(1),
        UpdatedAt = s_earlier.AddMinutes(1),
        Outcome = ReportOutcome.Failed,
        ExitCode = 3,
        Message = "an earlier failure",
    };

    private static StoredShardState Stored(ShardState? state, bool leased = false) => new(state, s_etag, leased);

    private static LoadManifest Manifest() => new()
    {
        LoadId = LoadId,
        CreatedAt = s_earlier,
        By = ShardKind.Range,
        Input = "https://acct.blob.core.windows.net/in/",
        InputIdentity = new InputIdentity("https://acct.blob.core.windows.net/in/", 100, "fingerprint"),
        Settings = new Dictionary<string, string>(),
        Queue = "shards",
        Shards = [new ShardSpec { Id = "s0001", Part = "a.csv" }, s_spec],
    };

    private static void AssertEnds(ShardDecision decision, ShardStep step, ShardResultKind result, MessageAction message, bool releaseLease)
    {
        Assert.Equal(step, decision.Step);
        Assert.Equal(result, decision.Result.Kind);
        Assert.Equal(message, decision.Message);
        Assert.Equal(releaseLease, decision.ReleaseLease);
    }

    // Received: whose the message is.

    [Fact]
    public void A_message_of_this_load_names_its_shard()
    {
        Assert.Same(s_spec, ShardTransitions.ShardOf(Manifest(), Message(1)));
    }

    [Theory]
    [InlineData("{\"loadId\":\"load-0\",\"shard\":\"s0002\"}")]
    [InlineData("{\"loadId\":\"load-1\",\"shard\":\"s0009\"}")]
    [InlineData("hello from another program")]
    public void A_message_of_another_load_an_unknown_shard_or_another_program_names_no_shard(string text)
    {
        Assert.Null(ShardTransitions.ShardOf(Manifest(), Message(1, text: text)));
    }

    [Fact]
    public void A_message_not_of_this_load_goes_to_the_poison_queue_and_nothing_is_recorded()
    {
        var decision = ShardTransitions.NotThisLoad;

        AssertEnds(decision, ShardStep.NotThisLoad, ShardResultKind.Skipped, MessageAction.Poison, releaseLease: false);
        Assert.Null(decision.Record);
    }

    // Received: the shard's state as read without a lease.

    /// <summary>
    /// A settled shard's message is deleted however often it was taken; any other goes on to take the lease while it was
    /// taken at most <c>MaxDequeues</c> times, or more when the shard is leased (its holder settles it).
    /// </summary>
    [Theory]
    [InlineData(nameof(ShardStatus.Done), 1, false, nameof(ShardStep.AlreadySettled), nameof(MessageAction.Delete))]
    [InlineData(nameof(ShardStatus.Poisoned), 1, false, nameof(ShardStep.AlreadySettled), nameof(MessageAction.Delete))]
    [InlineData(nameof(ShardStatus.Done), 9, false, nameof(ShardStep.AlreadySettled), nameof(MessageAction.Delete))]
    [InlineData(nameof(ShardStatus.Poisoned), 9, true, nameof(ShardStep.AlreadySettled), nameof(MessageAction.Delete))]
    [InlineData(nameof(ShardStatus.Queued), 1, false, nameof(ShardStep.Take), nameof(MessageAction.Keep))]
    [InlineData(nameof(ShardStatus.Failed), 2, false, nameof(ShardStep.Take), nameof(MessageAction.Keep))]
    [InlineData(nameof(ShardStatus.Running), 3, false, nameof(ShardStep.Take), nameof(MessageAction.Keep))]
    [InlineData(nameof(ShardStatus.Running), 4, true, nameof(ShardStep.Take), nameof(MessageAction.Keep))]
    public void A_message_of_a_shard_with_state_is_deleted_when_settled_else_goes_on_to_take_the_lease(string status, long dequeueCount, bool leased, string step, string message)
    {
        var decision = ShardTransitions.OnReceived(Message(dequeueCount), s_spec, Stored(State(Enum.Parse<ShardStatus>(status)), leased), s_shards, s_now);

        AssertEnds(decision, Enum.Parse<ShardStep>(step), ShardResultKind.Skipped, Enum.Parse<MessageAction>(message), releaseLease: false);
        Assert.Null(decision.Record);
    }

    /// <summary>Poisoned without a lease: written only if the state is as read, or created only if the plan left none.</summary>
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_message_taken_more_than_MaxDequeues_times_poisons_an_unleased_shard_unless_its_state_changed_meanwhile(bool withState)
    {
        var read = withState ? State(ShardStatus.Failed) : null;

        var decision = ShardTransitions.OnReceived(Message(4), s_spec, Stored(read), s_shards, s_now);

        AssertEnds(decision, ShardStep.Poisoned, ShardResultKind.Poisoned, MessageAction.Poison, releaseLease: false);
        Assert.Equal(withState ? s_etag : null, decision.IfMatch);
        Assert.Equal((read ?? new ShardState { LoadId = LoadId, Shard = s_spec.Id, Status = ShardStatus.Queued, UpdatedAt = s_now }) with
        {
            Status = ShardStatus.Poisoned,
            FinishedAt = s_now,
            UpdatedAt = s_now,
            Message = "taken 3 times without being settled (Loader:Shards:MaxDequeues 3)",
        }, decision.Record);
    }

    [Fact]
    public void A_message_of_a_shard_the_plan_left_without_state_creates_its_state_then_takes_the_lease()
    {
        var decision = ShardTransitions.OnReceived(Message(1), s_spec, Stored(null), s_shards, s_now);

        AssertEnds(decision, ShardStep.Take, ShardResultKind.Skipped, MessageAction.Keep, releaseLease: false);
        Assert.Equal(new ShardState { LoadId = LoadId, Shard = s_spec.Id, Status = ShardStatus.Queued, Enqueued = true, UpdatedAt = s_now }, decision.Record);
    }

    // The lease refused: another worker holds the shard.

    [Fact]
    public void A_message_of_a_shard_held_on_another_message_is_a_duplicate_and_deleted()
    {
        var decision = ShardTransitions.OnLeaseRefused(Message(1, id: "m-2"), State(ShardStatus.Running, messageId: "m-1"), s_shards);

        AssertEnds(decision, ShardStep.Duplicate, ShardResultKind.Skipped, MessageAction.Delete, releaseLease: false);
        Assert.Null(decision.Record);
    }

    [Theory]
    [InlineData("m-1")]
    [InlineData(null)]
    public void A_message_of_a_shard_held_on_this_very_message_or_on_none_known_is_hidden_for_the_visibility_timeout(string? holding)
    {
        var decision = ShardTransitions.OnLeaseRefused(Message(2, id: "m-1"), State(ShardStatus.Running, messageId: holding), s_shards);

        AssertEnds(decision, ShardStep.HeldElsewhere, ShardResultKind.Skipped, MessageAction.ShowAfter, releaseLease: false);
        Assert.Equal(s_shards.VisibilityTimeout, decision.Delay);
        Assert.Null(decision.Record);
    }

    [Fact]
    public void A_message_of_a_held_shard_whose_state_is_gone_is_hidden_again()
    {
        var decision = ShardTransitions.OnLeaseRefused(Message(1), current: null, s_shards);

        AssertEnds(decision, ShardStep.HeldElsewhere, ShardResultKind.Skipped, MessageAction.ShowAfter, releaseLease: false);
    }

    // The lease taken: the state as the last holder left it.

    [Theory]
    [InlineData(nameof(ShardStatus.Done))]
    [InlineData(nameof(ShardStatus.Poisoned))]
    public void A_shard_settled_between_the_first_read_and_the_lease_has_its_message_deleted_and_the_lease_given_back(string statusName)
    {
        var status = Enum.Parse<ShardStatus>(statusName);
        var decision = ShardTransitions.OnLeaseTaken(Message(1), s_spec, State(status), Worker, s_now);

        AssertEnds(decision, ShardStep.SettledMeanwhile, ShardResultKind.Skipped, MessageAction.Delete, releaseLease: true);
        Assert.Null(decision.Record);
    }

    [Fact]
    public void A_shard_taken_again_is_recorded_running_on_this_message_by_this_worker_with_one_attempt_more()
    {
        var decision = ShardTransitions.OnLeaseTaken(Message(2, id: "m-2"), s_spec, State(ShardStatus.Failed), Worker, s_now);

        AssertEnds(decision, ShardStep.Start, ShardResultKind.Skipped, MessageAction.Keep, releaseLease: false);
        Assert.Equal(State(ShardStatus.Failed) with
        {
            Status = ShardStatus.Running,
            MessageId = "m-2",
            Attempts = 2,
            Worker = Worker,
            StartedAt = s_now,
            FinishedAt = null,
            UpdatedAt = s_now,
        }, decision.Record);
    }

    [Fact]
    public void A_shard_taken_first_starts_its_first_attempt_now()
    {
        var decision = ShardTransitions.OnLeaseTaken(Message(1), s_spec, underLease: null, Worker, s_now);

        Assert.Equal(ShardStep.Start, decision.Step);
        var record = decision.Record!;
        Assert.Equal((LoadId, s_spec.Id, ShardStatus.Running, true, "m-1", 1, Worker), (record.LoadId, record.Shard, record.Status, record.Enqueued, record.MessageId, record.Attempts, record.Worker));
        Assert.Equal((s_now, s_now, s_now, null), (record.FirstStartedAt, record.StartedAt, record.UpdatedAt, record.FinishedAt));
    }

    // The run ended.

    private static ShardState Running() => State(ShardStatus.Running) with { Attempts = 2, Worker = Worker, StartedAt = s_earlier, FinishedAt = null, Outcome = null, ExitCode = null, Message = null };

    private static ShardRunEnd Ended(LoadOutcomeKind kind, string outcome, int exitCode, string? message, bool stopRequested = false, bool leaseLost = false) =>
        ShardRunEnd.Of(new LoadResult(new LoadOutcome(kind, message), HtmlReportTests.Report() with { Outcome = Enum.Parse<ReportOutcome>(outcome), ExitCode = exitCode, Message = message }))
            with { StopRequested = stopRequested, LeaseLost = leaseLost };

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    public void A_completed_run_records_the_shard_done_deletes_its_message_and_gives_the_lease_back(long dequeueCount)
    {
        var end = Ended(LoadOutcomeKind.Completed, "Completed", 0, null);

        var decision = ShardTransitions.OnRunEnded(Running(), end, dequeueCount, s_shards, s_now);

        AssertEnds(decision, ShardStep.Done, ShardResultKind.Done, MessageAction.Delete, releaseLease: true);
        Assert.Same(end.Report, decision.Result.Report);
        Assert.Equal(Running() with { Status = ShardStatus.Done, FinishedAt = s_now, UpdatedAt = s_now, Outcome = ReportOutcome.Completed, ExitCode = 0, Message = null }, decision.Record);
    }

    [Fact]
    public void A_run_that_completed_as_the_stop_came_is_done()
    {
        var decision = ShardTransitions.OnRunEnded(Running(), Ended(LoadOutcomeKind.Completed, "Completed", 0, null, stopRequested: true), 1, s_shards, s_now);

        Assert.Equal(ShardStep.Done, decision.Step);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    public void A_run_stopped_on_request_is_given_back_as_a_new_message_at_once_without_counting_toward_the_poison_queue(long dequeueCount)
    {
        var decision = ShardTransitions.OnRunEnded(Running(), Ended(LoadOutcomeKind.Stopped, "Stopped", 5, "stopped on request", stopRequested: true), dequeueCount, s_shards, s_now);

        AssertEnds(decision, ShardStep.GivenBack, ShardResultKind.Stopped, MessageAction.GiveBack, releaseLease: true);
        Assert.Equal(Running() with { Status = ShardStatus.Queued, UpdatedAt = s_now, Outcome = ReportOutcome.Stopped, ExitCode = 5, Message = "stopped by its worker; resumes from its checkpoint" }, decision.Record);
    }

    [Fact]
    public void A_failed_run_with_takes_left_records_the_failure_and_the_message_shows_again_after_RetryDelay()
    {
        var end = Ended(LoadOutcomeKind.Unavailable, "Failed", 3, "Tables: no answer");

        var decision = ShardTransitions.OnRunEnded(Running(), end, 2, s_shards, s_now);

        AssertEnds(decision, ShardStep.FailedWillRetry, ShardResultKind.Failed, MessageAction.ShowAfter, releaseLease: true);
        Assert.Equal(s_shards.RetryDelay, decision.Delay);
        Assert.Same(end.Report, decision.Result.Report);
        Assert.Equal(Running() with { Status = ShardStatus.Failed, FinishedAt = s_now, UpdatedAt = s_now, Outcome = ReportOutcome.Failed, ExitCode = 3, Message = "Tables: no answer" }, decision.Record);
    }

    [Fact]
    public void A_run_stopped_without_a_stop_requested_is_a_failure()
    {
        var decision = ShardTransitions.OnRunEnded(Running(), Ended(LoadOutcomeKind.Stopped, "Stopped", 5, null), 1, s_shards, s_now);

        Assert.Equal(ShardStep.FailedWillRetry, decision.Step);
        Assert.Equal("Stopped", decision.Record!.Message);
    }

    [Fact]
    public void A_run_that_threw_is_a_failure_with_the_exception_as_its_reason_and_no_report()
    {
        var decision = ShardTransitions.OnRunEnded(Running(), ShardRunEnd.Crashed(10, "InvalidOperationException: boom"), 1, s_shards, s_now);

        AssertEnds(decision, ShardStep.FailedWillRetry, ShardResultKind.Failed, MessageAction.ShowAfter, releaseLease: true);
        Assert.Null(decision.Result.Report);
        Assert.Equal((ReportOutcome.Failed, 10, "InvalidOperationException: boom"), (decision.Record!.Outcome, decision.Record.ExitCode, decision.Record.Message));
    }

    [Theory]
    [InlineData(3)]
    [InlineData(4)]
    public void A_run_that_failed_on_the_last_take_poisons_the_shard_under_the_lease(long dequeueCount)
    {
        var decision = ShardTransitions.OnRunEnded(Running(), Ended(LoadOutcomeKind.InputDamaged, "Failed", 4, "the gzip stream ends early"), dequeueCount, s_shards, s_now);

        AssertEnds(decision, ShardStep.Poisoned, ShardResultKind.Poisoned, MessageAction.Poison, releaseLease: true);
        Assert.Null(decision.IfMatch);
        Assert.Equal(Running() with
        {
            Status = ShardStatus.Poisoned,
            FinishedAt = s_now,
            UpdatedAt = s_now,
            Outcome = ReportOutcome.Failed,
            ExitCode = 4,
            Message = $"failed {dequeueCount} times (Loader:Shards:MaxDequeues 3); the last time: the gzip stream ends early",
        }, decision.Record);
    }

    [Theory]
    [InlineData(nameof(LoadOutcomeKind.Completed), false)]
    [InlineData(nameof(LoadOutcomeKind.Stopped), true)]
    [InlineData(nameof(LoadOutcomeKind.Unavailable), false)]
    public void A_run_whose_lease_was_lost_leaves_state_message_and_lease_to_the_worker_that_has_the_shard(string kindName, bool stopRequested)
    {
        var kind = Enum.Parse<LoadOutcomeKind>(kindName);
        var decision = ShardTransitions.OnRunEnded(Running(), Ended(kind, new LoadOutcome(kind).Name.ToString(), 0, null, stopRequested, leaseLost: true), 3, s_shards, s_now);

        AssertEnds(decision, ShardStep.LeaseLost, ShardResultKind.TakenOver, MessageAction.Keep, releaseLease: false);
        Assert.Null(decision.Record);
    }
}
