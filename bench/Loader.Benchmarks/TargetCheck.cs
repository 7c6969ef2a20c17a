using System.Globalization;

namespace Loader.Benchmarks;

/// <summary>A measured value against its target: at least (a speed, a ratio) or at most (memory).</summary>
internal sealed record TargetCheck(string Name, double Value, double Bound, bool AtLeast)
{
    public bool Pass => AtLeast ? Value >= Bound : Value <= Bound;

    public string Target => (AtLeast ? ">= " : "<= ") + Bound.ToString("#,0.##", CultureInfo.InvariantCulture);

    public string Result => Pass ? "PASS" : "FAIL";
}
