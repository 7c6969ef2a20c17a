namespace Loader.Worker.Verify;

/// <summary>
/// Rows of one partition compared in one pass over it, all of a key's rows together: the row keys from <see cref="From"/>
/// (inclusive; null: the partition's first) up to <see cref="Until"/> (exclusive; null: past its last). A partition of at
/// most <c>Loader:Verify:RowsInMemory</c> rows is one window; a larger one is cut into windows that together cover every
/// row key, each comparing what the store holds in its range, so an entity no row names still falls in exactly one.
/// </summary>
internal sealed record RowWindow(string PartitionKey, IReadOnlyList<SortedRow> Rows, string? From, string? Until)
{
    /// <summary>Whether a stored entity with <paramref name="rowKey"/> is this window's to compare (ordinal, as the rows were sorted).</summary>
    public bool Covers(string rowKey) =>
        (From is null || string.CompareOrdinal(rowKey, From) >= 0) && (Until is null || string.CompareOrdinal(rowKey, Until) < 0);

    /// <summary>The windows of sorted rows: each partition's rows in windows of about <paramref name="maxRows"/> (a key's rows are never split).</summary>
    public static IEnumerable<RowWindow> Of(IEnumerable<SortedRow> sorted, int maxRows)
    {
        using var rows = sorted.GetEnumerator();
        var more = rows.MoveNext();
        while (more)
        {
            var partitionKey = rows.Current.PartitionKey;
            string? from = null;
            var window = new List<SortedRow>();
            while (more && rows.Current.PartitionKey == partitionKey)
            {
                var row = rows.Current;
                if (window.Count >= maxRows && row.RowKey != window[^1].RowKey)
                {
                    yield return new RowWindow(partitionKey, window, from, row.RowKey);
                    from = row.RowKey;
                    window = [];
                }

                window.Add(row);
                more = rows.MoveNext();
            }

            yield return new RowWindow(partitionKey, window, from, null);
        }
    }
}
