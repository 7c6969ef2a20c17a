using Loader.Worker.Backends.Tables;

namespace Loader.Benchmarks;

/// <summary>Counts what a table holds after a phase: a benchmark that lost rows measured nothing.</summary>
public static class TableCount
{
    public static async Task<long> CountAsync(string connectionString, string table, CancellationToken cancellationToken)
    {
        var client = TableRestClient.FromConnectionString(connectionString);
        long count = 0;
        await foreach (var _ in client.QueryAsync(table, null, cancellationToken))
        {
            count++;
        }

        return count;
    }
}
