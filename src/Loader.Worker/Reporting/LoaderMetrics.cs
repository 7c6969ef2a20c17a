using System.Diagnostics.Metrics;

namespace Loader.Worker.Reporting;

/// <summary>
/// The loader's counters as <see cref="System.Diagnostics.Metrics"/> instruments, for OpenTelemetry and
/// <c>dotnet-counters</c>. The report reads <see cref="LoadStatistics"/>; both are fed at the same points.
/// </summary>
internal sealed class LoaderMetrics
{
    public const string MeterName = "BulkLoader";

    private readonly Counter<long> _rows;
    private readonly Counter<long> _batches;
    private readonly Counter<long> _throttled;
    private readonly Counter<long> _retries;
    private readonly Counter<double> _requestUnits;
    private readonly Histogram<double> _batchDuration;

    public LoaderMetrics(IMeterFactory meterFactory)
    {
        var meter = Meter = meterFactory.Create(MeterName);
        _rows = meter.CreateCounter<long>("loader.rows", "{row}", "Rows by outcome: written, rejected, superseded, failed.");
        _batches = meter.CreateCounter<long>("loader.batches", "{batch}", "Transactions the service applied.");
        _throttled = meter.CreateCounter<long>("loader.throttled", "{response}", "429/503 responses received.");
        _retries = meter.CreateCounter<long>("loader.retries", "{attempt}", "Batch attempts repeated after throttling or a transient failure.");
        _requestUnits = meter.CreateCounter<double>("loader.request_units", "{RU}", "Request units charged.");
        _batchDuration = meter.CreateHistogram<double>("loader.batch.duration", "ms", "Latency of one batch request.");
    }

    /// <summary>This host's meter (one process can hold several hosts, as the tests do).</summary>
    public Meter Meter { get; }

    public void Rows(string outcome, long count) => _rows.Add(count, new KeyValuePair<string, object?>("outcome", outcome));

    public void Batch(TimeSpan latency, double? requestCharge)
    {
        _batchDuration.Record(latency.TotalMilliseconds);
        if (requestCharge is { } charge)
        {
            _requestUnits.Add(charge);
        }
    }

    public void BatchWritten() => _batches.Add(1);

    public void Throttled(int count) => _throttled.Add(count);

    public void Retry() => _retries.Add(1);
}
