using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// A leaf's levels, entry by entry, for a reader that assembles a list or map column from its leaves; pooled buffers,
/// given back on dispose.
/// </summary>
internal interface IParquetLeafLevels : IDisposable
{
    /// <summary>The bytes its buffers hold.</summary>
    long HeldBytes { get; }

    /// <summary>The entries (levels) of the row group.</summary>
    int LevelCount { get; }

    /// <summary>The first entry of <paramref name="row"/>; of the row after the last, <see cref="LevelCount"/>.</summary>
    int RowStart(int row);

    /// <summary>The definition level of entry <paramref name="level"/>.</summary>
    int Definition(int level);

    /// <summary>The repetition level of entry <paramref name="level"/>.</summary>
    int Repetition(int level);

    /// <summary>The index among the leaf's values of the first value of <paramref name="row"/>.</summary>
    int FirstValue(int row);

    /// <summary>Value <paramref name="value"/> of the leaf, converted as a single value is.</summary>
    TypedField Value(int value);
}
