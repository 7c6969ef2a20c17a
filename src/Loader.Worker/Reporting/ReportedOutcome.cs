namespace Loader.Worker.Reporting;

/// <summary>How a load ended as its report records it: <c>outcome</c>, <c>exitCode</c> and <c>message</c>.</summary>
internal sealed record ReportedOutcome(ReportOutcome Outcome, int ExitCode, string? Message);
