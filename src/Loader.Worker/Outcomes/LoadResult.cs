using Loader.Worker.Reporting;

namespace Loader.Worker.Outcomes;

/// <summary>How a run of the pipeline ended, as a type to act on, and its report, as users read it.</summary>
internal sealed record LoadResult(LoadOutcome Outcome, LoadReport Report);
