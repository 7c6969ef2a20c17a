using Parquet.Data;

namespace Loader.Worker.Parquet;

/// <summary>
/// The CLR types the Parquet reader hands values out as, turned from the leaf's <see cref="Type"/> into a generic call:
/// one list of them for every reader of a leaf (single values, a list's or map's leaves).
/// </summary>
internal static class ParquetClrTypes
{
    /// <summary>Runs <paramref name="read"/> for the CLR type of <paramref name="column"/>'s values.</summary>
    public static ValueTask<TResult> ReadAsync<TResult>(ParquetColumn column, IParquetValueRead<TResult> read) =>
        column.Leaf.ClrType switch
        {
            var t when t == typeof(bool) => read.ReadAsync<bool>(),
            var t when t == typeof(sbyte) => read.ReadAsync<sbyte>(),
            var t when t == typeof(byte) => read.ReadAsync<byte>(),
            var t when t == typeof(short) => read.ReadAsync<short>(),
            var t when t == typeof(ushort) => read.ReadAsync<ushort>(),
            var t when t == typeof(int) => read.ReadAsync<int>(),
            var t when t == typeof(uint) => read.ReadAsync<uint>(),
            var t when t == typeof(long) => read.ReadAsync<long>(),
            var t when t == typeof(ulong) => read.ReadAsync<ulong>(),
            var t when t == typeof(Half) => read.ReadAsync<Half>(),
            var t when t == typeof(float) => read.ReadAsync<float>(),
            var t when t == typeof(double) => read.ReadAsync<double>(),
            var t when t == typeof(decimal) => read.ReadAsync<decimal>(),
            var t when t == typeof(BigDecimal) => read.ReadAsync<BigDecimal>(),
            var t when t == typeof(ReadOnlyMemory<char>) => read.ReadAsync<ReadOnlyMemory<char>>(),
            var t when t == typeof(ReadOnlyMemory<byte>) => read.ReadAsync<ReadOnlyMemory<byte>>(),
            var t when t == typeof(DateTime) => read.ReadAsync<DateTime>(),
            var t when t == typeof(DateOnly) => read.ReadAsync<DateOnly>(),
            var t when t == typeof(Guid) => read.ReadAsync<Guid>(),
            var t => throw new InvalidOperationException($"column '{column.Name}' has values of {t.Name}, which the plan should have refused"),
        };
}
