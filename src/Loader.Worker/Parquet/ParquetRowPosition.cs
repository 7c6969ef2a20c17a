using System.Globalization;

namespace Loader.Worker.Parquet;

/// <summary>Where a row stands in a Parquet file: its row group and its row within it, both 1-based as messages give them.</summary>
internal readonly record struct ParquetRowPosition(int RowGroup, long Row)
{
    /// <summary>How rejects and reports name the row: <c>row group 2, row 17</c>.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"row group {RowGroup}, row {Row}");
}
