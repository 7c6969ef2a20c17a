using Loader.Abstractions;
using Loader.Worker.Reporting;

namespace Loader.Worker.Verify;

/// <summary>
/// The JSON report of a verify. Counts reconcile: <c>rowsRead = rowsMatching + rowsSuperseded + rowsRejected + rowsMissing
/// + rowsDifferent + rowsDuplicateNotWon + rowsNotDeleted + rowsUnchecked</c>; <c>extraEntities</c> are the store's, not the input's.
/// </summary>
internal sealed record VerifyReport
{
    /// <summary>What this report is of: <c>verify</c> (a load's report has no such field).</summary>
    public string Command { get; init; } = "verify";

    public required string Backend { get; init; }

    public required string Input { get; init; }

    public required string Target { get; init; }

    public required WriteMode WriteMode { get; init; }

    /// <summary><c>Completed</c> (the target is as the load leaves it), <c>TargetDiffers</c>, <c>Stopped</c> or <c>Failed</c>.</summary>
    public required ReportOutcome Outcome { get; init; }

    public required int ExitCode { get; init; }

    public string? Message { get; init; }

    public required DateTimeOffset StartedAt { get; init; }

    public required DateTimeOffset FinishedAt { get; init; }

    public required double ElapsedSeconds { get; init; }

    /// <summary>Of a sharded load: its shards; null for a load of the whole input.</summary>
    public int? Shards { get; init; }

    /// <summary>The rejects files whose rows are expected absent.</summary>
    public IReadOnlyList<string> RejectsFiles { get; init; } = [];

    /// <summary>Whether entities no row accounts for were counted (<c>--extra</c>).</summary>
    public required bool Extra { get; init; }

    public required long RowsRead { get; init; }

    /// <summary>Rows whose key holds what the load writes (under Delete: whose key is gone).</summary>
    public required long RowsMatching { get; init; }

    /// <summary>Rows of a repeated key beside the one that should stand.</summary>
    public required long RowsSuperseded { get; init; }

    /// <summary>Rows the rejects file lists, or that cannot be mapped: expected absent.</summary>
    public required long RowsRejected { get; init; }

    public required long RowsMissing { get; init; }

    public required long RowsDifferent { get; init; }

    /// <summary>Repeated keys whose store holds another of their rows than the one that should have won.</summary>
    public required long RowsDuplicateNotWon { get; init; }

    /// <summary>Under Delete: keys the store still holds.</summary>
    public required long RowsNotDeleted { get; init; }

    /// <summary>Rows not checked: the verify stopped, or a partition could not be read.</summary>
    public required long RowsUnchecked { get; init; }

    /// <summary>Entities of the input's partitions no row names; null unless <c>--extra</c>.</summary>
    public long? ExtraEntities { get; init; }

    public required bool Reconciled { get; init; }

    /// <summary>Partitions read back, and passes over them (a partition larger than <c>Loader:Verify:RowsInMemory</c> takes several).</summary>
    public required long Partitions { get; init; }

    public required long PartitionPasses { get; init; }

    /// <summary>Entities the target returned.</summary>
    public required long EntitiesRead { get; init; }

    /// <summary>Runs of sorted rows written to temporary files (0: the input fit in memory).</summary>
    public required int SpilledRuns { get; init; }

    public required double RowsPerSecond { get; init; }

    public required long Requests { get; init; }

    public required long Throttled { get; init; }

    public required long Retries { get; init; }

    public required double RetryWaitSeconds { get; init; }

    public double? RequestCharge { get; init; }

    public required LatencySummary LatencyMs { get; init; }

    public required double PeakMemoryMiB { get; init; }

    /// <summary>The first examples of each kind of finding, by key.</summary>
    public required VerifyExamples Examples { get; init; }

    public IReadOnlyDictionary<string, string> Settings { get; init; } = new Dictionary<string, string>();
}

/// <summary>The first examples of each kind of finding.</summary>
internal sealed record VerifyExamples(
    IReadOnlyList<VerifyExample> Missing,
    IReadOnlyList<VerifyExample> Different,
    IReadOnlyList<VerifyExample> DuplicateNotWon,
    IReadOnlyList<VerifyExample> NotDeleted,
    IReadOnlyList<VerifyExample> Extra)
{
    /// <summary>Each kind with its examples, in the order reports show them.</summary>
    public IEnumerable<(FindingKind Kind, IReadOnlyList<VerifyExample> Examples)> ByKind() =>
    [
        (FindingKind.Missing, Missing),
        (FindingKind.Different, Different),
        (FindingKind.DuplicateNotWon, DuplicateNotWon),
        (FindingKind.NotDeleted, NotDeleted),
        (FindingKind.Extra, Extra),
    ];
}

/// <summary>One finding: the key, where its row is in the input, and for a difference the first property that differs with both values.</summary>
/// <param name="PartitionKey">The key's partition (a hierarchical key as its JSON array).</param>
/// <param name="RowKey">The row key (Cosmos DB: the id).</param>
/// <param name="Line">The line of the row that should stand, as the load numbered it; null for an extra entity.</param>
/// <param name="File">The part the row is in, for an input of several parts or a range shard.</param>
/// <param name="FileLine">The row's own line in <paramref name="File"/>.</param>
/// <param name="Property">The first property that differs.</param>
/// <param name="Expected">Its value as the load writes it (null: the row has none).</param>
/// <param name="Stored">Its value as stored (null: the store has none).</param>
/// <param name="StoredLine">For a duplicate that did not win: the line of the row the store holds instead.</param>
internal sealed record VerifyExample(
    string PartitionKey,
    string RowKey,
    long? Line = null,
    string? File = null,
    long? FileLine = null,
    string? Property = null,
    string? Expected = null,
    string? Stored = null,
    long? StoredLine = null)
{
    /// <summary>Where the row is when its format names it otherwise than by line (a Parquet row: <c>row group 2, row 17</c>, with its file of several).</summary>
    public string? Place { get; init; }

    /// <summary>The place of the row the store holds instead, named as <see cref="Place"/>.</summary>
    public string? StoredPlace { get; init; }

    /// <summary>Examples in key order.</summary>
    public static IComparer<VerifyExample> ByKey { get; } = Comparer<VerifyExample>.Create((a, b) =>
        string.CompareOrdinal(a.PartitionKey, b.PartitionKey) is var byPartition && byPartition != 0 ? byPartition : string.CompareOrdinal(a.RowKey, b.RowKey));

    public static VerifyExample Of(VerifyRow row, PropertyDifference? difference, VerifyRow? storedRow) => new(
        PartitionKeyLevels.Display(row.Entity.PartitionKey),
        row.Entity.RowKey,
        row.Entity.Origin.Line,
        row.Part,
        row.Part is null ? null : row.PartLine,
        difference?.Property,
        difference?.Expected,
        difference?.Stored,
        storedRow?.Entity.Origin.Line)
    {
        Place = row.Place,
        StoredPlace = storedRow?.Place,
    };

    /// <summary>Where the row is, as a person reads it: its place in its format's words, or its line (and its file's line, of several).</summary>
    public string? Where(IFormatProvider culture) => Place ?? (Line is { } line
        ? string.Format(culture, "line {0:N0}{1}", line, File is { } file ? string.Format(culture, ", {0} line {1:N0}", file, FileLine) : "")
        : null);

    /// <summary>Where the row the store holds instead is, named as <see cref="Where"/>.</summary>
    public string? StoredWhere(IFormatProvider culture) => StoredPlace ?? (StoredLine is { } line ? string.Format(culture, "line {0:N0}", line) : null);
}
