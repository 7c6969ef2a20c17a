namespace Loader.Benchmarks;

/// <summary>How a benchmark run ended, for scripts: the worst of its results.</summary>
internal static class BenchExitCodes
{
    public const int TargetsMet = 0;

    /// <summary>The measurements are sound, but at least one missed its target.</summary>
    public const int TargetMissed = 1;

    public const int Usage = 2;

    /// <summary>A measurement is not valid: rows were lost, requests failed, or the loader failed.</summary>
    public const int Invalid = 3;

    public static int Of(bool valid, IEnumerable<TargetCheck> targets) =>
        !valid ? Invalid : targets.All(target => target.Pass) ? TargetsMet : TargetMissed;
}
