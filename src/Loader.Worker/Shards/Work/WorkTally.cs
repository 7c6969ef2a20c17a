using System.Globalization;
using System.Text;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;

namespace Loader.Worker.Shards.Work;

/// <summary>How one message a worker took ended.</summary>
internal sealed record ShardResult(ShardResultKind Kind, LoadReport? Report = null)
{
    public static readonly ShardResult Skipped = new(ShardResultKind.Skipped);
    public static readonly ShardResult Stopped = new(ShardResultKind.Stopped);
    public static readonly ShardResult Poisoned = new(ShardResultKind.Poisoned);
    public static readonly ShardResult TakenOver = new(ShardResultKind.TakenOver);

    public static ShardResult Done(LoadReport report) => new(ShardResultKind.Done, report);

    public static ShardResult Failed(LoadReport? report) => new(ShardResultKind.Failed, report);
}

internal enum ShardResultKind
{
    /// <summary>Nothing to do: settled already, a duplicate, held by another worker, or not this load's.</summary>
    Skipped,
    Done,
    Failed,
    Stopped,
    Poisoned,
    TakenOver,
}

/// <summary>What a worker did, for its summary and exit code.</summary>
internal sealed class WorkTally(TimeProvider timeProvider)
{
    private readonly long _started = timeProvider.GetTimestamp();
    private readonly Dictionary<ShardResultKind, int> _counts = [];
    private long _rowsWritten;

    public void Add(ShardResult result)
    {
        _counts[result.Kind] = _counts.GetValueOrDefault(result.Kind) + 1;
        _rowsWritten += result.Report?.RowsWritten ?? 0;
    }

    /// <summary>Exit 5 when stopped on request, 1 when this worker moved a shard to the poison queue, 0 otherwise.</summary>
    public CommandResult Result(string worker, bool stopped)
    {
        var c = CultureInfo.InvariantCulture;
        var seconds = timeProvider.GetElapsedTime(_started).TotalSeconds;
        int Count(ShardResultKind kind) => _counts.GetValueOrDefault(kind);
        var taken = _counts.Where(count => count.Key != ShardResultKind.Skipped).Sum(count => count.Value);
        var text = new StringBuilder();
        text.Append(c, $"Worker {worker}: took {taken} shard(s): {Count(ShardResultKind.Done)} done, {Count(ShardResultKind.Failed)} failed (back in the queue), ");
        text.Append(c, $"{Count(ShardResultKind.Poisoned)} poisoned, {Count(ShardResultKind.Stopped)} stopped, {Count(ShardResultKind.TakenOver)} taken over; ");
        text.Append(c, $"{_rowsWritten:N0} rows written in {seconds:N1} s ({(seconds > 0 ? _rowsWritten / seconds : 0):N0} rows/s). ");
        text.Append(stopped ? "Stopped on request: shards in progress are back in the queue." : "The queue is empty: run status for the whole load.");
        var outcome = stopped ? LoadOutcomeKind.Stopped : Count(ShardResultKind.Poisoned) > 0 ? LoadOutcomeKind.CompletedWithFailures : LoadOutcomeKind.Completed;
        return new CommandResult(outcome, text.ToString());
    }
}
