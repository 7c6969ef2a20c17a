namespace Loader.Worker.Outcomes;

/// <summary>Where a run's report goes.</summary>
/// <param name="Json">The JSON report's setting (a path or a blob URL), or null for none.</param>
/// <param name="Html">The HTML report's setting, or null for none (a shard writes none).</param>
/// <param name="PrintWhenLost">Whether a JSON report that cannot be stored is printed on standard output instead, so its numbers are not lost with it.</param>
internal sealed record ReportTargets(string? Json, string? Html = null, bool PrintWhenLost = false);
