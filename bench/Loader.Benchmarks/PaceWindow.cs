namespace Loader.Benchmarks;

/// <summary>
/// A stretch of a throttled load, from the loader's timeline: the request units the service accepted per second
/// in it, the 429s so far, and the concurrency limit and request-unit pace the loader held.
/// </summary>
internal sealed record PaceWindow(
    double FromSeconds,
    double ToSeconds,
    long RowsWritten,
    double RequestUnitsPerSecond,
    long ThrottledSoFar,
    int ConcurrencyMin,
    int ConcurrencyMax,
    double? PacedRequestUnitsPerSecond);
