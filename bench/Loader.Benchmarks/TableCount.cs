using Azure.Data.Tables;

namespace Loader.Benchmarks;

/// <summary>Counts what a table holds after a phase: a benchmark that lost rows measured nothing.</summary>
internal static class TableCount
{
    public static async Task<long> CountAsync(string connectionString, string table, CancellationToken cancellationToken)
    {
        long count = 0;
        // Keys only: the count needs no properties.
        await foreach (var _ in new TableClient(connectionString, table).QueryAsync<TableEntity>(select: ["RowKey"], cancellationToken: cancellationToken))
        {
            count++;
        }

        return count;
    }
}
