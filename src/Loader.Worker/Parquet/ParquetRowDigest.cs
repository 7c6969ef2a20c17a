using System.IO.Hashing;
using System.Runtime.InteropServices;
using Loader.Abstractions;

namespace Loader.Worker.Parquet;

/// <summary>
/// A Parquet row's digest for the input's fingerprint: XxHash3 over each column's value as read (its type and bits, or
/// its text or bytes; a null and a refused value distinctly), so a file changed under a checkpoint is found on resume
/// as a changed CSV line is. One instance per thread: it reuses its hash state.
/// </summary>
internal sealed class ParquetRowDigest
{
    private const byte NullTag = 0xFF;
    private const byte RefusedTag = 0xFE;
    private readonly XxHash3 _hash = new();

    public ulong Of(ParquetRowBlock block, int row)
    {
        _hash.Reset();
        Span<byte> scratch = stackalloc byte[17];
        for (var column = 0; column < block.ColumnCount; column++)
        {
            var cell = block.Cell(column, row);
            if (cell.Problem is { } problem)
            {
                scratch[0] = RefusedTag;
                _hash.Append(scratch[..1]);
                _hash.Append(MemoryMarshal.AsBytes(problem.AsSpan()));
                continue;
            }

            if (!cell.HasValue)
            {
                scratch[0] = NullTag;
                _hash.Append(scratch[..1]);
                continue;
            }

            var property = cell.Property;
            scratch[0] = (byte)property.Type;
            switch (property.Type)
            {
                case ColumnType.String:
                    _hash.Append(scratch[..1]);
                    _hash.Append(MemoryMarshal.AsBytes(property.AsString().AsSpan()));
                    break;
                case ColumnType.Json:
                    _hash.Append(scratch[..1]);
                    _hash.Append(MemoryMarshal.AsBytes(property.AsJson().AsSpan()));
                    break;
                case ColumnType.Binary:
                    _hash.Append(scratch[..1]);
                    _hash.Append(property.AsBinary().Span);
                    break;
                case ColumnType.Guid:
                    property.AsGuid().TryWriteBytes(scratch[1..]);
                    _hash.Append(scratch);
                    break;
                default:
                    var bits = property.Type switch
                    {
                        ColumnType.Int32 => property.AsInt32(),
                        ColumnType.Int64 => property.AsInt64(),
                        ColumnType.Double => BitConverter.DoubleToInt64Bits(property.AsDouble()),
                        ColumnType.Boolean => property.AsBoolean() ? 1 : 0,
                        ColumnType.DateTime => property.AsDateTime().Ticks,
                        _ => throw new InvalidOperationException($"no digest for {property.Type}"),
                    };
                    MemoryMarshal.Write(scratch[1..], in bits);
                    _hash.Append(scratch[..9]);
                    break;
            }
        }

        return _hash.GetCurrentHashAsUInt64();
    }
}
