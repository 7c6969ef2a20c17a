using Loader.Worker.Outputs;

namespace Loader.Worker.Outcomes;

/// <summary>A run's outcome with its report, as <see cref="ReportPublisher"/> stores it: a load's, a shard's, a verify's.</summary>
/// <typeparam name="TSelf">The result type itself.</typeparam>
internal interface IRunResult<TSelf>
    where TSelf : IRunResult<TSelf>
{
    LoadOutcome Outcome { get; }

    /// <summary>The report as the JSON report holds it.</summary>
    object JsonReport { get; }

    /// <summary>The same run with another outcome, its report saying the same: outcome, exit code and message change together.</summary>
    TSelf With(LoadOutcome outcome);

    /// <summary>Writes the report as one HTML page.</summary>
    Task WriteHtmlAsync(OutputFile file, CancellationToken cancellationToken);
}
