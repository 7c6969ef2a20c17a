using Azure.Data.Tables;
using Loader.Abstractions;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Verify;

namespace Loader.Worker.Tests.Verify;

/// <summary>
/// What the store should hold under a key of the input, by write mode, judged against stored entities by the Table
/// adapter's own comparison (a <see cref="TableStoredEntity"/> needs no service).
/// </summary>
public sealed class KeyCheckTests
{
    private static VerifyRow Row(long line, bool rejected = false, params (string Name, int Value)[] values) => new(
        new LoadEntity("p", "k", [.. values.Select(value => EntityProperty.FromInt32(value.Name, value.Value))], new RowOrigin(line - 1, line)), line, rejected);

    private static TableStoredEntity Stored(params (string Name, int Value)[] values)
    {
        var entity = new TableEntity("p", "k");
        foreach (var (name, value) in values)
        {
            entity[name] = value;
        }

        return new TableStoredEntity(entity);
    }

    [Fact]
    public void Under_Upsert_the_later_row_stands_and_a_store_holding_the_earlier_is_a_duplicate_not_won()
    {
        VerifyRow[] rows = [Row(2, false, ("n", 1)), Row(5, false, ("n", 2))];

        Assert.Equal((null, 5L, 1), Of(KeyCheck.Of(rows, Stored(("n", 2)), WriteMode.Upsert)));
        var lost = KeyCheck.Of(rows, Stored(("n", 1)), WriteMode.Upsert);
        Assert.Equal((FindingKind.DuplicateNotWon, 5L, 1), Of(lost));
        Assert.Equal((2L, "n", "2", "1"), (lost.StoredRow!.Entity.Origin.Line, lost.Difference!.Property, lost.Difference.Expected, lost.Difference.Stored));
        Assert.Equal((FindingKind.Different, 5L, 1), Of(KeyCheck.Of(rows, Stored(("n", 3)), WriteMode.Upsert)));
        Assert.Equal((FindingKind.Missing, 5L, 1), Of(KeyCheck.Of(rows, null, WriteMode.Upsert)));
    }

    [Fact]
    public void Under_Insert_the_first_row_stands()
    {
        VerifyRow[] rows = [Row(2, false, ("n", 1)), Row(5, false, ("n", 2))];

        Assert.Equal((null, 2L, 1), Of(KeyCheck.Of(rows, Stored(("n", 1)), WriteMode.Insert)));
        Assert.Equal((FindingKind.DuplicateNotWon, 2L, 1), Of(KeyCheck.Of(rows, Stored(("n", 2)), WriteMode.Insert)));
    }

    [Fact]
    public void Under_Merge_the_rows_fold_in_order_and_the_store_may_keep_what_no_row_names()
    {
        VerifyRow[] rows = [Row(2, false, ("a", 1), ("b", 1)), Row(5, false, ("b", 2))];

        Assert.Equal((null, 5L, 1), Of(KeyCheck.Of(rows, Stored(("a", 1), ("b", 2), ("kept", 9)), WriteMode.Merge)));
        Assert.Equal((FindingKind.DuplicateNotWon, 5L, 1), Of(KeyCheck.Of(rows, Stored(("a", 1), ("b", 1), ("kept", 9)), WriteMode.Merge)));
        Assert.Equal((FindingKind.Different, 5L, 1), Of(KeyCheck.Of(rows, Stored(("b", 2)), WriteMode.Merge)));
        Assert.Equal((FindingKind.Different, 5L, 1), Of(KeyCheck.Of(rows, Stored(("a", 1), ("b", 2), ("kept", 9)), WriteMode.Upsert)));
    }

    [Fact]
    public void Under_Delete_a_stored_key_is_not_deleted()
    {
        VerifyRow[] rows = [Row(3)];

        Assert.Equal((null, 3L, 0), Of(KeyCheck.Of(rows, null, WriteMode.Delete)));
        Assert.Equal((FindingKind.NotDeleted, 3L, 0), Of(KeyCheck.Of(rows, Stored(), WriteMode.Delete)));
    }

    [Fact]
    public void Rejected_rows_take_no_part_and_a_key_of_rejected_rows_alone_is_checked_for_nothing()
    {
        var onlyRejected = KeyCheck.Of([Row(2, true, ("n", 1))], Stored(("n", 7)), WriteMode.Upsert);
        Assert.Equal((null, null, 0, 1), (onlyRejected.Finding, onlyRejected.Expected, onlyRejected.Superseded, onlyRejected.Rejected));

        var laterRejected = KeyCheck.Of([Row(2, false, ("n", 1)), Row(5, true, ("n", 2))], Stored(("n", 1)), WriteMode.Upsert);
        Assert.Equal((null, 2L, 0, 1), (laterRejected.Finding, laterRejected.Expected!.Entity.Origin.Line, laterRejected.Superseded, laterRejected.Rejected));
    }

    private static (FindingKind?, long, int) Of(KeyVerdict verdict) => (verdict.Finding, verdict.Expected!.Entity.Origin.Line, verdict.Superseded);
}
