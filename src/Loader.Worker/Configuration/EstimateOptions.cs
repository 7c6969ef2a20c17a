using System.ComponentModel.DataAnnotations;

namespace Loader.Worker.Configuration;

/// <summary>What <c>--estimate</c> does besides reading the whole input (<c>Loader:Estimate</c>).</summary>
internal sealed class EstimateOptions
{
    /// <summary>Rows of the input's start that <c>--estimate</c> writes to the target to measure request units per row and rows per second (<c>--sample N</c>); 0 writes nothing. They are the load's own first rows, written as the load would write them.</summary>
    // A count of rows: any, from none.
    [Range(0, int.MaxValue)]
    public int SampleRows { get; set; } = 1_000;

    /// <summary>Prices the estimate's cost is computed with.</summary>
    public PriceOptions Prices { get; set; } = new();
}
