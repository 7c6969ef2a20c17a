namespace Loader.Worker.Reporting.Verdict;

/// <summary>The report's verdict: what limited the load, said in one sentence, and the figures it rests on.</summary>
/// <param name="Kind">What limited the load.</param>
/// <param name="Sentence">One sentence for the user.</param>
/// <param name="Decisive">Whether a limit crossed its threshold; false when none did and the verdict names the nearest (docs/what-limited-a-load.md).</param>
/// <param name="Evidence">The measured figures the verdict rests on.</param>
internal sealed record LimitVerdict(LimitKind Kind, string Sentence, bool Decisive, IReadOnlyList<VerdictEvidence> Evidence);

/// <summary>One figure behind a verdict.</summary>
/// <param name="Name">The figure's name (as the time breakdown and the docs name it).</param>
/// <param name="Value">Its value: a share from 0 to 1, seconds, a count, a rate.</param>
/// <param name="Says">What it says, for a person.</param>
internal sealed record VerdictEvidence(string Name, double Value, string Says);
