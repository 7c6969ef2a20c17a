using System.Diagnostics;
using Azure;
using Loader.Worker.Reporting;

namespace Loader.Benchmarks;

/// <summary>
/// Sends requests with a fixed number in flight, in no particular order and without retries, timing each:
/// nothing but the requests themselves, to measure what the service takes. <c>write</c> sends one request and
/// returns null on success, or what the service said.
/// </summary>
internal static class TimedWriter
{
    public static async Task<WriteTiming> RunAsync<T>(
        IReadOnlyList<T> items, int inFlight, Func<T, int> rowsOf, Func<T, CancellationToken, Task<string?>> write, CancellationToken cancellationToken)
    {
        var latency = new LatencyHistogram();
        var timeline = new ProgressTimeline();
        long rows = 0, failed = 0;
        string? firstError = null;
        var cpu = new CpuMeter(Environment.ProcessId);
        var clock = Stopwatch.StartNew();
        var options = new ParallelOptions { MaxDegreeOfParallelism = inFlight, CancellationToken = cancellationToken };
        await Parallel.ForEachAsync(items, options, async (item, token) =>
        {
            var sent = Stopwatch.GetTimestamp();
            string? error;
            try
            {
                error = await write(item, token);
            }
            catch (RequestFailedException exception)
            {
                error = exception.Message;
            }

            latency.Record(Stopwatch.GetElapsedTime(sent));
            if (error is null)
            {
                Interlocked.Add(ref rows, rowsOf(item));
                timeline.Completed(rowsOf(item));
            }
            else
            {
                Interlocked.Increment(ref failed);
                Interlocked.CompareExchange(ref firstError, error, null);
            }
        });

        var seconds = clock.Elapsed.TotalSeconds;
        return new WriteTiming(rows, items.Count, seconds, latency, timeline, failed, firstError, cpu.CoresUsed());
    }
}
