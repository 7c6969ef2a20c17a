using System.Buffers;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Builds the body of an entity group transaction: a <c>multipart/mixed</c> batch holding one change set with
/// one HTTP request per entity. Upsert is a PUT and Merge a MERGE without If-Match (insert-or-replace,
/// insert-or-merge); Insert is a POST that fails with 409 when the entity exists.
/// </summary>
public sealed class TableTransactionContent
{
    // Per-operation text around the entity: part headers, request line without URL, request headers, separators.
    internal const int OperationOverheadBytes = 256;

    private static readonly byte[] s_partHeader = Encoding.ASCII.GetBytes(
        "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n");

    private static readonly byte[] s_requestHeaders = Encoding.ASCII.GetBytes(
        " HTTP/1.1\r\nAccept: application/json;odata=nometadata\r\nContent-Type: application/json\r\nDataServiceVersion: 3.0\r\n");

    private static readonly byte[] s_noContent = Encoding.ASCII.GetBytes("Prefer: return-no-content\r\n");

    private readonly string _tableUrl;

    public TableTransactionContent(Uri endpoint, string table)
    {
        _tableUrl = endpoint.AbsoluteUri.TrimEnd('/') + "/" + table;
    }

    /// <summary>Length of the table URL that every operation's request line repeats.</summary>
    public int TableUrlBytes => _tableUrl.Length;

    public static string ContentType(string batchBoundary) => "multipart/mixed; boundary=" + batchBoundary;

    public ReadOnlyMemory<byte> Build(EntityBatch batch, string batchBoundary, string changesetBoundary)
    {
        var buffer = new ArrayBufferWriter<byte>(EstimateCapacity(batch));
        using var json = new Utf8JsonWriter(buffer, JsonText.WriterOptions);

        Ascii(buffer, $"--{batchBoundary}\r\nContent-Type: multipart/mixed; boundary={changesetBoundary}\r\n\r\n");
        foreach (var entity in batch.Entities)
        {
            Ascii(buffer, $"--{changesetBoundary}\r\n");
            buffer.Write(s_partHeader);
            WriteRequestLine(buffer, batch.Mode, entity);
            buffer.Write(s_requestHeaders);
            if (batch.Mode == WriteMode.Insert)
            {
                buffer.Write(s_noContent);
            }

            Ascii(buffer, "\r\n");
            json.Reset(buffer);
            WriteBody(json, batch.Mode, entity);
            json.Flush();
            Ascii(buffer, "\r\n");
        }

        Ascii(buffer, $"--{changesetBoundary}--\r\n--{batchBoundary}--\r\n");
        return buffer.WrittenMemory;
    }

    private void WriteRequestLine(ArrayBufferWriter<byte> buffer, WriteMode mode, LoadEntity entity)
    {
        switch (mode)
        {
            case WriteMode.Insert:
                Ascii(buffer, "POST ");
                Ascii(buffer, _tableUrl);
                break;
            case WriteMode.Upsert:
                Ascii(buffer, "PUT ");
                Ascii(buffer, EntityUrl(entity.PartitionKey, entity.RowKey));
                break;
            case WriteMode.Merge:
                Ascii(buffer, "MERGE ");
                Ascii(buffer, EntityUrl(entity.PartitionKey, entity.RowKey));
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(mode), mode, "unknown write mode");
        }
    }

    private static void WriteBody(Utf8JsonWriter json, WriteMode mode, LoadEntity entity)
    {
        json.WriteStartObject();
        if (mode == WriteMode.Insert)
        {
            // POST addresses the table, so the keys travel in the body; PUT and MERGE carry them in the URL.
            json.WriteString("PartitionKey", entity.PartitionKey);
            json.WriteString("RowKey", entity.RowKey);
        }

        EdmJson.WriteProperties(json, entity.Properties);
        json.WriteEndObject();
    }

    public string EntityUrl(string partitionKey, string rowKey) =>
        $"{_tableUrl}(PartitionKey='{EscapeKey(partitionKey)}',RowKey='{EscapeKey(rowKey)}')";

    /// <summary>OData string literal inside a URL: quotes doubled, then percent-encoded.</summary>
    public static string EscapeKey(string key) => Uri.EscapeDataString(key.Replace("'", "''", StringComparison.Ordinal));

    private static void Ascii(ArrayBufferWriter<byte> buffer, string text)
    {
        var span = buffer.GetSpan(text.Length);
        var written = Encoding.ASCII.GetBytes(text, span);
        buffer.Advance(written);
    }

    private static int EstimateCapacity(EntityBatch batch) =>
        (int)Math.Min(int.MaxValue, batch.PayloadBytes + 512);
}
