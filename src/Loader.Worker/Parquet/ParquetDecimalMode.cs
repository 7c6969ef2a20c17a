namespace Loader.Worker.Parquet;

/// <summary>What a Parquet DECIMAL column is written as (<c>Loader:Parquet:Decimal</c>).</summary>
internal enum ParquetDecimalMode
{
    /// <summary>Its exact digits as text (<c>12.50</c>): nothing is lost, whatever the precision.</summary>
    String,

    /// <summary>A double, for values a double holds exactly enough to give back the same decimal; any other is a reject, never rounded.</summary>
    Double,
}
