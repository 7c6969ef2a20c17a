namespace Loader.Worker.Verify;

/// <summary>
/// A row as <see cref="RowSorter"/> orders it: by partition key, then row key (both ordinal), then its place in the input,
/// so a partition's rows come together and a key's rows in input order. The rest stays encoded until it is compared.
/// </summary>
/// <param name="PartitionKey">The row's partition key.</param>
/// <param name="RowKey">The row's row key.</param>
/// <param name="Sequence">The row's place in the input (<see cref="VerifyRow.Sequence"/>).</param>
/// <param name="Encoded">The whole row, by <see cref="VerifyRowCodec"/>.</param>
internal sealed record SortedRow(string PartitionKey, string RowKey, long Sequence, byte[] Encoded)
{
    public static int Compare(SortedRow? a, SortedRow? b)
    {
        if (ReferenceEquals(a, b))
        {
            return 0;
        }

        if (a is null || b is null)
        {
            return a is null ? -1 : 1;
        }

        var byPartition = string.CompareOrdinal(a.PartitionKey, b.PartitionKey);
        if (byPartition != 0)
        {
            return byPartition;
        }

        var byRow = string.CompareOrdinal(a.RowKey, b.RowKey);
        return byRow != 0 ? byRow : a.Sequence.CompareTo(b.Sequence);
    }

    public VerifyRow Decode() => VerifyRowCodec.Decode(Encoded);
}
