using Microsoft.Azure.Cosmos.Serialization.HybridRow;
using Microsoft.Azure.Cosmos.Serialization.HybridRow.IO;
using Microsoft.Azure.Cosmos.Serialization.HybridRow.RecordIO;

namespace Loader.CosmosStandIn.Wire;

/// <summary>
/// Decodes a batch request body: a RecordIO stream (a segment, then one record per operation), each record a
/// HybridRow of the <see cref="BatchSchema"/> operation layout.
/// </summary>
public static class BatchRequestReader
{
    /// <summary>The operations in request order; <see cref="FormatException"/> when the body is not a batch.</summary>
    public static async Task<IReadOnlyList<BatchOperation>> ReadAsync(Stream body)
    {
        var operations = new List<BatchOperation>();
        var result = await body.ReadRecordIOAsync(
            (Func<ReadOnlyMemory<byte>, Result>)(record =>
            {
                var read = ReadOperation(record, operations.Count, out var operation);
                if (read == Result.Success)
                {
                    operations.Add(operation!);
                }

                return read;
            }),
            null,
            // Without a resizer the reader finds no records at all; with one sized to the body it never needs to grow.
            resizer: new MemorySpanResizer<byte>((int)Math.Max(1024, body.CanSeek ? body.Length : 0))).ConfigureAwait(false);

        return result == Result.Success
            ? operations
            : throw new FormatException($"the batch body is not a RecordIO stream of batch operations ({result} at operation {operations.Count}).");
    }

    private static Result ReadOperation(ReadOnlyMemory<byte> record, int index, out BatchOperation? operation)
    {
        operation = null;
        var row = new RowBuffer(record.Length);
        if (!row.ReadFrom(record.Span, HybridRowVersion.V1, BatchSchema.Resolver))
        {
            return Result.InvalidRow;
        }

        if (row.Header.SchemaId.Id != BatchSchema.OperationSchemaId)
        {
            return Result.TypeMismatch;
        }

        int? type = null;
        string? id = null, partitionKey = null, ifMatch = null, ifNoneMatch = null;
        byte[]? body = null;
        var minimal = false;
        var reader = new RowReader(ref row);
        while (reader.Read())
        {
            var field = reader.Path.ToString();
            var result = field switch
            {
                "operationType" => ReadInt(ref reader, out type),
                "id" => reader.ReadString(out id),
                "partitionKey" => reader.ReadString(out partitionKey),
                "resourceBody" => reader.ReadBinary(out body),
                "ifMatch" => reader.ReadString(out ifMatch),
                "ifNoneMatch" => reader.ReadString(out ifNoneMatch),
                "minimalReturnPreference" => reader.ReadBool(out minimal),
                // resourceType (always Document here), effective partition key, binary id, indexing directive
                // and time to live change nothing the stand-in does.
                _ => Result.Success,
            };
            if (result != Result.Success)
            {
                return result;
            }
        }

        if (type is null || !Enum.IsDefined((BatchOperationType)type.Value))
        {
            return Result.TypeConstraint;
        }

        operation = new BatchOperation(index, (BatchOperationType)type.Value, id, partitionKey, body ?? ReadOnlyMemory<byte>.Empty, ifMatch, ifNoneMatch, minimal);
        return Result.Success;
    }

    private static Result ReadInt(ref RowReader reader, out int? value)
    {
        var result = reader.ReadInt32(out var read);
        value = read;
        return result;
    }
}
