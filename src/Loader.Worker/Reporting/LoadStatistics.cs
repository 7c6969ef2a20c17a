using Loader.Abstractions;
using Loader.Worker.Reporting.Partitions;

namespace Loader.Worker.Reporting;

/// <summary>
/// What happened to every row and request of a load, counted as it happens. Thread-safe; the progress line
/// and the final report read snapshots of it.
/// </summary>
internal sealed class LoadStatistics(LoaderMetrics metrics, TimeProvider timeProvider)
{
    private const int MaxDistinctErrors = 20;

    private readonly Lock _chargeLock = new();
    private readonly Dictionary<string, long> _errors = new(StringComparer.Ordinal);
    private long _started = timeProvider.GetTimestamp();
    private long _rowsRead;
    private long _rowsWritten;
    private long _rowsRejected;
    private long _rowsSuperseded;
    private long _rowsFailed;
    private long _rowsSkipped;
    private long _rowsAlreadyWritten;
    private long _rowsAlreadyAbsent;
    private long _patchOperations;
    private long _readReplaceOperations;
    private long _rowsOfOtherShards;
    private long _linesRejected;
    private long _batches;
    private long _requests;
    private long _answers;
    private long _throttled;
    private long _throttledBudget;
    private long _throttledBucket;
    private long _retries;
    private long _retryWaitTicks;
    private long _inFlight;
    private double _requestCharge;
    private bool _requestChargeReported;
    private Inputs.InputProgress? _input;

    private const int MaxSamples = 2000;
    private readonly List<ProgressSample> _samples = [];

    public LatencyHistogram Latency { get; } = new();

    /// <summary>Where the load's time went: the stages' work and waits, the service, back-off, pacing, CPU.</summary>
    public LoadTimes Times { get; } = new(timeProvider);

    /// <summary>Rows, batches, time and throttles per partition key, for the report's partitions view and the verdict.</summary>
    public PartitionStatistics Partitions { get; } = new();

    /// <summary>Rejected rows grouped by reason, with the first few of each, for the report.</summary>
    public RejectReasons Rejects { get; } = new();

    /// <summary>The input being read and its stored size in bytes, so progress can tell how far into it the load is.</summary>
    public void TrackInput(Inputs.InputProgress input) => Volatile.Write(ref _input, input);

    /// <summary>Keeps a progress sample for the report's timeline; past 2,000 every other one is dropped, so a long load keeps its whole span.</summary>
    public void AddSample(ProgressSample sample)
    {
        lock (_samples)
        {
            _samples.Add(sample);
            if (_samples.Count >= MaxSamples)
            {
                for (var i = _samples.Count - 1; i > 0; i -= 2)
                {
                    _samples.RemoveAt(i - 1);
                }
            }
        }
    }

    public IReadOnlyList<ProgressSample> Samples()
    {
        lock (_samples)
        {
            return [.. _samples];
        }
    }

    /// <summary>Time since the load started (<see cref="Start"/>): reading, writing and draining, not process start-up.</summary>
    public TimeSpan Elapsed => timeProvider.GetElapsedTime(Interlocked.Read(ref _started));

    /// <summary>Marks the start of the load proper, once the input is open and the target ready.</summary>
    public void Start()
    {
        Interlocked.Exchange(ref _started, timeProvider.GetTimestamp());
        Times.Start();
    }

    public void RowsRead(long count) => Interlocked.Add(ref _rowsRead, count);

    public void RowsSkipped(long count) => Interlocked.Add(ref _rowsSkipped, count);

    /// <summary>Rows a key shard read that belong to another shard's bucket: not this shard's to write or reject.</summary>
    public void RowsOfOtherShards(long count) => Interlocked.Add(ref _rowsOfOtherShards, count);

    /// <summary>Rows a resumed Insert load found already stored by the run before it.</summary>
    public void RowsAlreadyWritten(long count)
    {
        Interlocked.Add(ref _rowsAlreadyWritten, count);
        metrics.Rows("already_written", count);
    }

    /// <summary>Rows of a Delete load whose entity the store did not hold (the service's 404): nothing to delete, not a reject.</summary>
    public void RowsAlreadyAbsent(long count)
    {
        Interlocked.Add(ref _rowsAlreadyAbsent, count);
        metrics.Rows("already_absent", count);
    }

    public void RowsRejected(long count)
    {
        Interlocked.Add(ref _rowsRejected, count);
        metrics.Rows("rejected", count);
    }

    /// <summary>Input lines the rejected rows spanned: one each, unless a field held line breaks (or a stray quote took lines in).</summary>
    public void LinesRejected(long count) => Interlocked.Add(ref _linesRejected, count);

    public void RowsSuperseded(long count)
    {
        Interlocked.Add(ref _rowsSuperseded, count);
        metrics.Rows("superseded", count);
    }

    public void RowsFailed(long count, string error)
    {
        Interlocked.Add(ref _rowsFailed, count);
        metrics.Rows("failed", count);
        lock (_errors)
        {
            if (_errors.TryGetValue(error, out var rows))
            {
                _errors[error] = rows + count;
            }
            else if (_errors.Count < MaxDistinctErrors)
            {
                _errors[error] = count;
            }
        }
    }

    /// <summary>Distinct errors that failed rows, with the rows each failed (the first <see cref="MaxDistinctErrors"/> kinds).</summary>
    public IReadOnlyList<ErrorCount> Errors()
    {
        lock (_errors)
        {
            return [.. _errors.OrderByDescending(e => e.Value).Select(e => new ErrorCount(e.Key, e.Value))];
        }
    }

    /// <summary>Rows a non-atomic write landed although its batch did not complete.</summary>
    public void RowsWritten(int rows)
    {
        Interlocked.Add(ref _rowsWritten, rows);
        metrics.Rows("written", rows);
    }

    public void BatchWritten(int rows)
    {
        Interlocked.Add(ref _rowsWritten, rows);
        Interlocked.Increment(ref _batches);
        metrics.Rows("written", rows);
        metrics.BatchWritten();
    }

    /// <summary>Records one request to the service, whatever its outcome.</summary>
    public void Attempt(BatchOutcome outcome)
    {
        Interlocked.Increment(ref _requests);
        Interlocked.Add(ref _answers, outcome.Answers);
        Latency.Record(outcome.Latency);
        metrics.Batch(outcome.Latency, outcome.RequestCharge);
        Interlocked.Add(ref _patchOperations, outcome.PatchOperations);
        Interlocked.Add(ref _readReplaceOperations, outcome.ReadReplaceOperations);
        if (outcome.ThrottledResponses > 0)
        {
            Interlocked.Add(ref _throttled, outcome.ThrottledResponses);
            Interlocked.Add(ref _throttledBudget, outcome.BudgetThrottledResponses);
            Interlocked.Add(ref _throttledBucket, outcome.BucketThrottledResponses);
            metrics.Throttled(outcome.ThrottledResponses);
        }

        if (outcome.RequestCharge is { } charge)
        {
            lock (_chargeLock)
            {
                _requestCharge += charge;
                _requestChargeReported = true;
            }
        }
    }

    public void Retry(TimeSpan wait)
    {
        Interlocked.Increment(ref _retries);
        Interlocked.Add(ref _retryWaitTicks, wait.Ticks);
        metrics.Retry();
    }

    public void BatchStarted() => Interlocked.Increment(ref _inFlight);

    public void BatchFinished() => Interlocked.Decrement(ref _inFlight);

    public LoadCounts Snapshot()
    {
        double? charge;
        lock (_chargeLock)
        {
            charge = _requestChargeReported ? _requestCharge : null;
        }

        return new LoadCounts(
            RowsRead: Interlocked.Read(ref _rowsRead),
            RowsWritten: Interlocked.Read(ref _rowsWritten),
            RowsRejected: Interlocked.Read(ref _rowsRejected),
            RowsSuperseded: Interlocked.Read(ref _rowsSuperseded),
            RowsFailed: Interlocked.Read(ref _rowsFailed),
            RowsSkipped: Interlocked.Read(ref _rowsSkipped),
            RowsAlreadyWritten: Interlocked.Read(ref _rowsAlreadyWritten),
            Batches: Interlocked.Read(ref _batches),
            Requests: Interlocked.Read(ref _requests),
            Answers: Interlocked.Read(ref _answers),
            Throttled: Interlocked.Read(ref _throttled),
            Retries: Interlocked.Read(ref _retries),
            RetryWait: TimeSpan.FromTicks(Interlocked.Read(ref _retryWaitTicks)),
            InFlight: Interlocked.Read(ref _inFlight),
            RequestCharge: charge,
            Elapsed: Elapsed)
        {
            LinesRejected = Interlocked.Read(ref _linesRejected),
            InputBytesRead = Volatile.Read(ref _input)?.BytesRead ?? 0,
            InputBytes = Volatile.Read(ref _input)?.Length ?? 0,
            RowsOfOtherShards = Interlocked.Read(ref _rowsOfOtherShards),
            RowsAlreadyAbsent = Interlocked.Read(ref _rowsAlreadyAbsent),
            PatchOperations = Interlocked.Read(ref _patchOperations),
            ReadReplaceOperations = Interlocked.Read(ref _readReplaceOperations),
            ThrottledBudget = Interlocked.Read(ref _throttledBudget),
            ThrottledBucket = Interlocked.Read(ref _throttledBucket),
        };
    }
}

/// <summary>A consistent-enough reading of <see cref="LoadStatistics"/> (each counter exact, read one after another).</summary>
internal sealed record LoadCounts(
    long RowsRead,
    long RowsWritten,
    long RowsRejected,
    long RowsSuperseded,
    long RowsFailed,
    long RowsSkipped,
    long RowsAlreadyWritten,
    long Batches,
    long Requests,
    long Answers,
    long Throttled,
    long Retries,
    TimeSpan RetryWait,
    long InFlight,
    double? RequestCharge,
    TimeSpan Elapsed)
{
    /// <summary>Input lines the rejected rows spanned.</summary>
    public long LinesRejected { get; init; }

    /// <summary>Of <see cref="Throttled"/>, those that met the request-unit budget (Cosmos DB sub-status 3200).</summary>
    public long ThrottledBudget { get; init; }

    /// <summary>Of <see cref="Throttled"/>, those that met the throughput bucket (Cosmos DB sub-status 3212).</summary>
    public long ThrottledBucket { get; init; }

    /// <summary>Bytes of the input read so far, as stored (see <see cref="Inputs.InputProgress"/>).</summary>
    public long InputBytesRead { get; init; }

    /// <summary>The input's stored size in bytes; 0 when not known (yet).</summary>
    public long InputBytes { get; init; }

    /// <summary>
    /// How much of the load is done, 0 to 1, or null when the input's size is not known: the share of the input read,
    /// times the share of the rows read so far that have reached an end (rows waiting in batches are not done).
    /// </summary>
    public double? Completed => InputBytes <= 0 ? null
        : Math.Clamp((double)InputBytesRead / InputBytes, 0, 1) * (RowsRead > 0 ? (double)RowsSettled / RowsRead : 0);
    /// <summary>Rows a key shard read that were another shard's (not counted in <see cref="RowsRead"/>).</summary>
    public long RowsOfOtherShards { get; init; }

    /// <summary>Rows of a Delete load whose entity was not stored.</summary>
    public long RowsAlreadyAbsent { get; init; }

    /// <summary>Operations sent as patches of stored items (Cosmos DB Merge), retries included.</summary>
    public long PatchOperations { get; init; }

    /// <summary>Operations sent as replaces of items read just before (Cosmos DB Merge), retries included.</summary>
    public long ReadReplaceOperations { get; init; }

    /// <summary>Rows that reached an end: written (deleted, under Delete), rejected, superseded, failed, found already written by an earlier run, or found already absent.</summary>
    public long RowsSettled => RowsWritten + RowsRejected + RowsSuperseded + RowsFailed + RowsAlreadyWritten + RowsAlreadyAbsent;

    public double RowsPerSecond => Elapsed > TimeSpan.Zero ? RowsWritten / Elapsed.TotalSeconds : 0;
}

/// <summary>An error and how many rows it failed.</summary>
internal sealed record ErrorCount(string Error, long Rows);
