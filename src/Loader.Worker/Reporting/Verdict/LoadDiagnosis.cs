using Loader.Worker.Reporting.Partitions;

namespace Loader.Worker.Reporting.Verdict;

/// <summary>
/// The figures a verdict is chosen from, read from the load's counters when it ends (<see cref="LoadReportBuilder"/>),
/// and the shares the chooser compares with its thresholds. Plain values, so a test can construct any load's.
/// </summary>
internal sealed record LoadDiagnosis
{
    public required TimeSpan Elapsed { get; init; }

    public required long RowsRead { get; init; }

    public required double RowsPerSecond { get; init; }

    /// <summary>The service's answers (requests; items in Cosmos DB bulk mode) and how many of them were throttled.</summary>
    public required long Answers { get; init; }

    public required long Throttled { get; init; }

    /// <summary>Where the load's time went.</summary>
    public required LoadTimesSnapshot Times { get; init; }

    /// <summary>Time waiting for the input's stored bytes, and time decompressing them.</summary>
    public TimeSpan InputReading { get; init; }

    public TimeSpan InputDecompressing { get; init; }

    /// <summary>What the input is read from ("a file", "3 blobs", "a named pipe"); null when it was not opened.</summary>
    public string? InputMedium { get; init; }

    public bool InputCompressed { get; init; }

    /// <summary>Bytes of the input read, as stored.</summary>
    public long InputBytesRead { get; init; }

    /// <summary>Batches allowed in flight, on average over the load.</summary>
    public required double AllowedConcurrency { get; init; }

    public required string ConcurrencyMode { get; init; }

    public required int MaxParallelBatches { get; init; }

    /// <summary>The load's own caps, when set.</summary>
    public double? MaxRequestUnitsPerSecond { get; init; }

    public double? MaxRowsPerSecond { get; init; }

    /// <summary>The request-unit pace at the end (learned from 429s, or the cap); null when unpaced.</summary>
    public double? PacedRequestUnitsPerSecond { get; init; }

    /// <summary>Request units charged per second over the load; null when the service reports none.</summary>
    public double? RequestUnitsPerSecond { get; init; }

    /// <summary>The partition key whose batches were at the service or backing off the longest.</summary>
    public PartitionLine? LongestHeld { get; init; }

    public double LatencyP50Milliseconds { get; init; }

    /// <summary>The cores the process may use (<see cref="Environment.ProcessorCount"/>).</summary>
    public required int Cores { get; init; }

    /// <summary>The batches' time, summed: at the service, waiting for the pace, and backing off.</summary>
    public TimeSpan DispatchTime => Times.InFlight + Times.Paced + Times.ThrottledBackoff + Times.FaultBackoff;

    /// <summary>Of <see cref="DispatchTime"/>, the failed attempts and the back-off after transient faults.</summary>
    public double FaultShare => Share(Times.FaultAttempts + Times.FaultBackoff, DispatchTime);

    /// <summary>Of <see cref="DispatchTime"/>, the waits for the pace.</summary>
    public double PacedShare => Share(Times.Paced, DispatchTime);

    /// <summary>Throttled answers of all answers.</summary>
    public double ThrottledShare => Answers > 0 ? (double)Throttled / Answers : 0;

    /// <summary>Of the throttled answers, those to the batches of <see cref="LongestHeld"/>: near 1 when one key was throttled alone (its partition's budget), low when the throttling was service-wide.</summary>
    public double ThrottlesOnLongestHeld => Throttled > 0 && LongestHeld is { } key ? Math.Min(1, (double)key.Throttled / Throttled) : 0;

    /// <summary>Requests in flight on average (Little's law: their time at the service over the load's).</summary>
    public double AverageInFlight => Share(Times.InFlight, Elapsed);

    /// <summary>How full the concurrency slots allowed were kept by requests at the service.</summary>
    public double SlotUse => AllowedConcurrency > 0 ? AverageInFlight / AllowedConcurrency : 0;

    /// <summary>Of the load's time, that during which <see cref="LongestHeld"/> had a batch at the service or backing off.</summary>
    public double HeldShare => LongestHeld is { } key ? Math.Min(1, (key.InFlightSeconds + key.BackoffSeconds) / Math.Max(1e-9, Elapsed.TotalSeconds)) : 0;

    /// <summary>The read thread's working time (not waiting for the batch stage): reading, decompressing, parsing, mapping.</summary>
    public TimeSpan ReaderWorking => Times.Reader - Times.ReaderBlocked;

    /// <summary>Of the load's time, that the read thread worked.</summary>
    public double ReaderBusy => Math.Min(1, Share(ReaderWorking, Elapsed));

    /// <summary>Of the read thread's working time, that spent waiting for the input's bytes and decompressing them.</summary>
    public double InputShare => Math.Min(1, Share(InputReading + InputDecompressing, ReaderWorking));

    /// <summary>Of the load's time, that the batch thread worked (not waiting for rows or for the dispatcher).</summary>
    public double BatcherBusy => Math.Min(1, Share(Times.Batcher - Times.BatcherWaitingForRows - Times.BatcherWaitingForDispatcher, Elapsed));

    /// <summary>Cores the process kept busy on average: its CPU time over the load's.</summary>
    public double CoresUsed => Share(Times.Cpu, Elapsed);

    /// <summary>The input's stored bytes read per second of waiting for them, in MiB/s; null when no time was spent waiting.</summary>
    public double? InputMiBPerSecond => InputReading > TimeSpan.Zero && InputBytesRead > 0 ? InputBytesRead / InputReading.TotalSeconds / (1 << 20) : null;

    private static double Share(TimeSpan part, TimeSpan whole) => whole > TimeSpan.Zero ? Math.Max(0, part / whole) : 0;
}
