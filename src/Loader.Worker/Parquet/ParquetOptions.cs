namespace Loader.Worker.Parquet;

/// <summary>How a Parquet input's values are written (<c>Loader:Parquet</c>).</summary>
internal sealed class ParquetOptions
{
    /// <summary>
    /// DECIMAL columns: <c>String</c> writes the exact digits as text; <c>Double</c> writes a number, and rejects a row
    /// whose value a double would round (naming row group, row and column).
    /// </summary>
    public ParquetDecimalMode Decimal { get; set; } = ParquetDecimalMode.String;
}
