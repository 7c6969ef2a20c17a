using System.ComponentModel.DataAnnotations;

namespace Loader.Worker.Configuration;

/// <summary>What <c>--estimate</c> does besides reading the whole input (<c>Loader:Estimate</c>).</summary>
internal sealed class EstimateOptions
{
    /// <summary>Rows of the input's start that <c>--estimate</c> writes to the target to measure request units per row and rows per second (<c>--sample N</c>); 0 writes nothing. They are the load's own first rows, written as the load would write them.</summary>
    // A count of rows: any, from none.
    [Range(0, int.MaxValue)]
    public int SampleRows { get; set; } = 1_000;

    /// <summary>
    /// How long the sample may go on after its first <see cref="SampleRows"/> rows, writing twice the rows at twice the
    /// batches in flight each step, until the service throttles, its latency rises past the knee, or this time is up;
    /// a step the service throttles runs on 3 s more to measure what it lets through. 0 writes the first rows only.
    /// </summary>
    // Handed to CancellationTokenSource.CancelAfter; longer than ten minutes is a load, not a sample.
    [Range(typeof(TimeSpan), "00:00:00", "00:10:00")]
    public TimeSpan RampTime { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Prices the estimate's cost is computed with.</summary>
    public PriceOptions Prices { get; set; } = new();
}
