using Microsoft.Azure.Cosmos.Serialization.HybridRow;
using Microsoft.Azure.Cosmos.Serialization.HybridRow.IO;
using Microsoft.Azure.Cosmos.Serialization.HybridRow.Layouts;
using Microsoft.Azure.Cosmos.Serialization.HybridRow.RecordIO;

namespace Loader.CosmosStandIn.Wire;

/// <summary>Encodes batch results as the service does: a RecordIO stream of HybridRows of the <see cref="BatchSchema"/> result layout, one per operation, in order.</summary>
public static class BatchResponseWriter
{
    public static async Task<byte[]> WriteAsync(IReadOnlyList<BatchOperationResult> results)
    {
        using var stream = new MemoryStream();
        var written = await stream.WriteRecordIOAsync(default, (long index, out ReadOnlyMemory<byte> buffer) =>
        {
            // An empty buffer ends the stream.
            buffer = index < results.Count ? Row(results[(int)index]) : default;
            return Result.Success;
        }).ConfigureAwait(false);

        return written == Result.Success ? stream.ToArray() : throw new InvalidOperationException($"encoding the batch results failed: {written}");
    }

    private static byte[] Row(BatchOperationResult result)
    {
        var row = new RowBuffer(128 + result.Body.Length);
        row.InitLayout(HybridRowVersion.V1, BatchSchema.ResultLayout, BatchSchema.Resolver);
        var written = RowWriter.WriteBuffer(ref row, result, WriteResult);
        return written == Result.Success ? row.ToArray() : throw new InvalidOperationException($"encoding a batch result failed: {written}");
    }

    private static Result WriteResult(ref RowWriter writer, TypeArgument typeArgument, BatchOperationResult result)
    {
        var written = writer.WriteInt32("statusCode", result.StatusCode);
        if (written == Result.Success)
        {
            written = writer.WriteInt32("subStatusCode", result.SubStatusCode);
        }

        if (written == Result.Success && result.ETag is not null)
        {
            written = writer.WriteString("eTag", result.ETag);
        }

        if (written == Result.Success && !result.Body.IsEmpty)
        {
            written = writer.WriteBinary("resourceBody", result.Body.Span);
        }

        if (written == Result.Success && result.RetryAfterMilliseconds is { } retryAfter)
        {
            written = writer.WriteUInt32("retryAfterMilliseconds", retryAfter);
        }

        if (written == Result.Success)
        {
            written = writer.WriteFloat64("requestCharge", result.RequestCharge);
        }

        return written;
    }
}
