using System.Globalization;
using System.Text;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;

namespace Loader.Worker.Shards.Status;

/// <summary>Merges the shards' states and last reports into one <see cref="LoadStatus"/>, and words it for the user.</summary>
internal static class StatusMerge
{
    public static LoadStatus Merge(
        LoadManifest manifest,
        ShardedLoad load,
        IReadOnlyList<(ShardSpec Spec, StoredShardState Stored, LoadReport? Report)> shards,
        int queueMessages,
        int poisonMessages,
        DateTimeOffset now,
        TimeSpan visibility)
    {
        var lines = shards.Select(shard => Line(shard.Spec, shard.Stored, shard.Report, visibility)).ToList();
        int Count(string status) => lines.Count(line => line.Status == status);
        var counts = new ShardCounts(lines.Count, Count("done"), Count("running"), Count("waiting"), Count("poisoned"));
        var done = shards.Where(shard => shard.Stored.State?.Status == ShardStatus.Done).ToList();
        var reports = done.Select(shard => shard.Report).OfType<LoadReport>().ToList();
        var complete = counts.Done == counts.Total;
        var problem = complete ? Problem(manifest, done) : null;
        var first = shards.Select(shard => shard.Stored.State?.FirstStartedAt).Min();
        var last = complete ? shards.Select(shard => shard.Stored.State?.FinishedAt).Max() : now;
        var elapsed = first is { } from && last is { } to ? Math.Max(0, (to - from).TotalSeconds) : 0;
        var written = reports.Sum(report => report.RowsWritten);
        return new LoadStatus
        {
            LoadId = manifest.LoadId,
            Input = manifest.Input,
            By = manifest.By,
            Queue = load.Queue.Display,
            State = load.Store.Display,
            PlannedAt = manifest.CreatedAt,
            CheckedAt = now,
            Complete = complete,
            Reconciled = complete && problem is null,
            Problem = problem,
            Shards = counts,
            QueueMessages = queueMessages,
            PoisonMessages = poisonMessages,
            Rows = reports.Sum(report => report.RowsRead + report.RowsSkipped),
            RowsWritten = written,
            RowsRejected = reports.Sum(report => report.RowsRejected),
            RowsSuperseded = reports.Sum(report => report.RowsSuperseded),
            RowsFailed = reports.Sum(report => report.RowsFailed),
            RowsAlreadyWritten = reports.Sum(report => report.RowsAlreadyWritten),
            RowsAlreadyAbsent = reports.Sum(report => report.RowsAlreadyAbsent),
            RowsSettledByEarlierRuns = reports.Sum(report => report.RowsSkipped),
            Batches = reports.Sum(report => report.Batches),
            Requests = reports.Sum(report => report.Requests),
            Throttled = reports.Sum(report => report.Throttled),
            Retries = reports.Sum(report => report.Retries),
            RequestCharge = reports.Any(report => report.RequestCharge is not null) ? Math.Round(reports.Sum(report => report.RequestCharge ?? 0), 2) : null,
            ElapsedSeconds = Math.Round(elapsed, 3),
            RowsPerSecond = elapsed > 0 ? Math.Round(written / elapsed, 1) : 0,
            WorstP99LatencyMs = reports.Count == 0 ? 0 : reports.Max(report => report.LatencyMs.P99),
            RejectsPath = reports.Any(report => report.RowsRejected > 0) ? load.Store.UrlOf("shards/*/rejects.csv").Split('?')[0] : null,
            ShardList = lines,
        };
    }

    /// <summary>Why a complete load does not reconcile; null when every row is accounted for.</summary>
    private static string? Problem(LoadManifest manifest, List<(ShardSpec Spec, StoredShardState Stored, LoadReport? Report)> done)
    {
        var problems = new List<string>();
        foreach (var (spec, _, report) in done)
        {
            if (report is null)
            {
                problems.Add($"shard {spec.Id} is done but has no report");
            }
            else if (report.Shard != spec.Id || !report.Completed || !report.Reconciled)
            {
                problems.Add($"shard {spec.Id}'s last report is {report.Outcome}, reconciled {report.Reconciled}");
            }
        }

        if (manifest.By == ShardKind.Key)
        {
            // Every key shard reads the whole input: each must have met every record, its own or another's.
            var records = done.Where(shard => shard.Report is not null)
                .Select(shard => (shard.Spec.Id, Records: shard.Report!.RowsRead + shard.Report.RowsSkipped + (shard.Report.RowsOfOtherShards ?? 0)))
                .ToList();
            if (records.Select(shard => shard.Records).Distinct().Count() > 1)
            {
                problems.Add("the key shards did not all read the same records: " + string.Join(", ", records.Select(shard => string.Create(CultureInfo.InvariantCulture, $"{shard.Id} {shard.Records:N0}"))));
            }
        }

        return problems.Count == 0 ? null : string.Join("; ", problems);
    }

    private static ShardLine Line(ShardSpec spec, StoredShardState stored, LoadReport? report, TimeSpan visibility)
    {
        var state = stored.State;
        var (status, message) = state switch
        {
            null => ("waiting", "not enqueued yet: run plan again"),
            { Status: ShardStatus.Done } => ("done", state.Message),
            { Status: ShardStatus.Poisoned } => ("poisoned", state.Message),
            { Status: ShardStatus.Running } when stored.Leased => ("running", null),
            { Status: ShardStatus.Running } => ("waiting", string.Create(CultureInfo.InvariantCulture,
                $"its worker {state.Worker} stopped holding it; it shows in the queue again within {visibility.TotalSeconds:0} s (Loader:Shards:VisibilityTimeout) and resumes from its checkpoint")),
            { Status: ShardStatus.Failed } => ("waiting", string.Create(CultureInfo.InvariantCulture, $"attempt {state.Attempts} failed (exit code {state.ExitCode}): {state.Message}")),
            _ => ("waiting", state.Message ?? "in the queue"),
        };
        return new ShardLine
        {
            Id = spec.Id,
            Covers = spec.Describe(),
            Status = status,
            Attempts = state?.Attempts ?? 0,
            Worker = state?.Worker,
            StartedAt = state?.StartedAt,
            FinishedAt = state?.FinishedAt,
            RowsRead = report?.RowsRead,
            RowsWritten = report?.RowsWritten,
            RowsRejected = report?.RowsRejected,
            RowsSkipped = report?.RowsSkipped,
            RowsOfOtherShards = report?.RowsOfOtherShards,
            ResumedAtRecord = report?.ResumedAtRecord,
            Outcome = report?.Outcome,
            Message = message,
        };
    }

    public static string Format(LoadStatus status)
    {
        var c = CultureInfo.InvariantCulture;
        var text = new StringBuilder();
        var verdict = status.Shards.Poisoned > 0 ? "POISONED SHARDS"
            : !status.Complete ? "IN PROGRESS"
            : status.Reconciled ? "COMPLETE, reconciled"
            : "COMPLETE, NOT RECONCILED";
        text.AppendLine(c, $"Sharded load {status.LoadId} ({status.By}, {status.Shards.Total} shards) of {status.Input}: {verdict}");
        if (status.Problem is { } problem)
        {
            text.AppendLine(c, $"  {problem}");
        }

        text.AppendLine(c, $"  shards       {status.Shards.Done} done, {status.Shards.Running} running, {status.Shards.Waiting} waiting, {status.Shards.Poisoned} poisoned   (queue: {status.QueueMessages} messages; poison queue: {status.PoisonMessages})");
        text.AppendLine(c, $"  rows         {status.Rows:N0}{(status.Complete ? "" : " in the done shards")} = {status.RowsWritten:N0} written + {status.RowsRejected:N0} rejected + {status.RowsSuperseded:N0} superseded + {status.RowsFailed:N0} failed + {status.RowsAlreadyWritten:N0} already written + {(status.RowsAlreadyAbsent > 0 ? $"{status.RowsAlreadyAbsent:N0} already absent + " : "")}{status.RowsSettledByEarlierRuns:N0} settled by earlier runs");
        text.AppendLine(c, $"  requests     {status.Requests:N0} ({status.Batches:N0} batches applied, {status.Throttled:N0} throttled, {status.Retries:N0} retries); worst shard p99 latency {status.WorstP99LatencyMs:N1} ms");
        text.AppendLine(c, $"  elapsed      {status.ElapsedSeconds:N1} s from the first shard's start{(status.Complete ? " to the last one's end" : " until now")}: {status.RowsPerSecond:N0} rows/s written");
        if (status.RejectsPath is { } rejects)
        {
            text.AppendLine(c, $"  rejects      {rejects}");
        }

        foreach (var line in status.ShardList)
        {
            var rows = line.RowsRead is { } read ? string.Create(c, $"{read + (line.RowsSkipped ?? 0),10:N0} rows") : new string(' ', 15);
            text.Append(c, $"  {line.Id}  {line.Status,-8} {rows}  attempt {line.Attempts}  {line.Worker ?? "-",-16} {line.Covers}");
            if (line.ResumedAtRecord is { } resumed && line.Status == "done")
            {
                text.Append(c, $"; resumed at record {resumed:N0}");
            }

            if (line.Message is { } message && line.Status != "done")
            {
                text.Append(c, $": {message}");
            }

            text.AppendLine();
        }

        return text.ToString().TrimEnd();
    }
}
