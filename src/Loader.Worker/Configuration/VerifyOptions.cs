using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;

namespace Loader.Worker.Configuration;

/// <summary>What <c>verify</c> reports and how much of the input it holds in memory (<c>Loader:Verify</c>).</summary>
internal sealed class VerifyOptions
{
    /// <summary>
    /// Also report the entities stored in the input's partitions that no input row accounts for (<c>--extra</c>). They are
    /// read either way (a partition is read whole); without it they are not counted.
    /// </summary>
    public bool Extra { get; set; }

    /// <summary>
    /// Where verify writes its JSON report (the HTML report beside it, <c>.html</c>): a path or a blob URL. When empty, beside
    /// <c>Loader:ReportPath</c> with <c>.verify</c> before its extension (<c>report.json</c>: <c>report.verify.json</c>), so verify run with the load's settings keeps the load's report; none without either.
    /// </summary>
    [Accepts("a file path or a blob URL (not a prefix); optional")]
    public string? ReportPath { get; set; }

    /// <summary>Examples of each kind of finding (missing, different, ...) the reports and the summary show; the counts are always whole.</summary>
    // The loader's own ceiling: the examples are for a person to read, and the HTML report holds them all.
    [Range(1, 1000)]
    public int Examples { get; set; } = 20;

    /// <summary>
    /// Rows verify holds in memory at once: a sorted run of the input before it goes to a temporary file, and the rows of a
    /// partition compared in one pass over it (a larger partition is compared in several passes, each reading it again).
    /// Memory stays near this many rows whatever the input's size.
    /// </summary>
    // The loader's own floor (fewer rows only mean more passes and temporary files); the ceiling keeps a run's index one array.
    [Range(100, 10_000_000)]
    public int RowsInMemory { get; set; } = 100_000;
}
