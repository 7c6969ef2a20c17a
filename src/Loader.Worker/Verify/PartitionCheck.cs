using Loader.Abstractions;
using Loader.Worker.Backends;
using Loader.Worker.Dispatch;
using Loader.Worker.Dispatch.Resilience;

namespace Loader.Worker.Verify;

/// <summary>
/// Compares one window of a partition's rows with what the store holds: the partition read page by page (one query,
/// paged; each page a paced request, throttled and transient answers retried as a write is), each stored entity in the
/// window's range compared with its key's rows (<see cref="KeyCheck"/>), and the keys the store did not return found missing.
/// </summary>
/// <param name="reader">The adapter, reading a partition back.</param>
/// <param name="requests">Paces each page within a concurrency slot, as the load's writes are.</param>
/// <param name="resilience">Retries a page the service throttled or did not answer.</param>
/// <param name="tally">Where findings go.</param>
/// <param name="mode">The load's write mode: what the store should hold.</param>
/// <param name="extra">Whether entities no row names are counted (<c>--extra</c>).</param>
internal sealed class PartitionCheck(IPartitionReader reader, PacedRequests requests, BatchResilience resilience, VerifyTally tally, WriteMode mode, bool extra)
{
    /// <summary>The most entities a page holds: what a page is paced for.</summary>
    private const int PageRows = 1000;

    /// <exception cref="TargetUnavailableException">A page could not be read, even after its retries.</exception>
    public async Task CheckAsync(RowWindow window, CancellationToken cancellationToken)
    {
        tally.Pass(first: window.From is null);
        var keys = new Dictionary<string, List<SortedRow>>(StringComparer.Ordinal);
        foreach (var row in window.Rows)
        {
            if (!keys.TryGetValue(row.RowKey, out var rows))
            {
                keys[row.RowKey] = rows = [];
            }

            rows.Add(row);
        }

        string? continuation = null;
        do
        {
            using var page = await ReadAsync(window.PartitionKey, continuation, Math.Clamp(keys.Count, 1, PageRows), cancellationToken).ConfigureAwait(false);
            if (page.Outcome.Status != BatchStatus.Written)
            {
                throw new TargetUnavailableException(
                    $"partition '{PartitionKeyLevels.Display(window.PartitionKey)}' could not be read back: {page.Outcome.Error ?? page.Outcome.Status.ToString()}");
            }

            tally.EntitiesRead(page.Entities.Count);
            foreach (var stored in page.Entities)
            {
                if (!window.Covers(stored.RowKey))
                {
                    continue; // another window's
                }

                if (keys.Remove(stored.RowKey, out var rows))
                {
                    tally.Add(KeyCheck.Of(Decode(rows), stored, mode));
                }
                else if (extra)
                {
                    tally.Extra(window.PartitionKey, stored.RowKey);
                }
            }

            continuation = page.Continuation;
        }
        while (continuation is not null);

        foreach (var rows in keys.Values)
        {
            tally.Add(KeyCheck.Of(Decode(rows), null, mode));
        }
    }

    /// <summary>One page, retried while the service throttles it or gives no answer; the last answer when it never reads.</summary>
    private async Task<StoredPage> ReadAsync(string partitionKey, string? continuation, int rows, CancellationToken cancellationToken)
    {
        StoredPage? page = null;
        await resilience.Retry.ExecuteAsync(
            async token =>
            {
                page?.Dispose();
                page = await requests.SendAsync(
                    partitionKey, rows, request => reader.ReadPartitionAsync(partitionKey, continuation, request), static read => read.Outcome, StoredPage.Unread, sending: null, tally: null, token).ConfigureAwait(false);
                return page.Outcome;
            },
            cancellationToken).ConfigureAwait(false);
        return page!;
    }

    private static List<VerifyRow> Decode(List<SortedRow> rows) => [.. rows.Select(row => row.Decode())];
}
