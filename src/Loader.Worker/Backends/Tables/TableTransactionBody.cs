using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Writes the body of an entity group transaction (a <c>multipart/mixed</c> batch holding one change set, one HTTP
/// request per entity) straight from the loader's rows: the operations, headers and entity JSON the SDK's
/// <c>SubmitTransactionAsync</c> sends for the same actions, without an SDK entity or request object per row.
/// </summary>
internal sealed class TableTransactionBody
{
    private const string EdmTypeSuffix = "@odata.type";

    private static readonly byte[] s_partHeader = Ascii("Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n");

    private static readonly byte[] s_put = Ascii("PUT ");
    private static readonly byte[] s_merge = Ascii("MERGE ");
    private static readonly byte[] s_post = Ascii("POST ");
    private static readonly byte[] s_delete = Ascii("DELETE ");

    // Characters a key may keep in the request line as they are; any other makes the key go through Uri.EscapeDataString.
    private static readonly SearchValues<char> s_unreserved =
        SearchValues.Create("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~");

    private readonly byte[] _tableUrl;
    private readonly byte[] _requestHeaders;
    private readonly byte[] _insertHeaders;
    private readonly byte[] _conditionalHeaders;
    private readonly byte[] _deleteHeaders;

    /// <param name="serviceEndpoint">The Table service's endpoint, e.g. <c>https://account.table.core.windows.net</c> (no signature).</param>
    /// <param name="table">The target table.</param>
    public TableTransactionBody(Uri serviceEndpoint, string table)
    {
        _tableUrl = Ascii(serviceEndpoint.AbsoluteUri.TrimEnd('/') + "/" + table);
        var common = $"Host: {serviceEndpoint.Host}\r\nx-ms-version: {TableTransactionSender.ServiceVersion}\r\nDataServiceVersion: 3.0\r\n";
        _requestHeaders = Ascii(common + "Accept: application/json;odata=nometadata\r\nContent-Type: application/json\r\n\r\n");
        _insertHeaders = Ascii(common + "Prefer: return-no-content\r\nAccept: application/json;odata=nometadata\r\nContent-Type: application/json\r\n\r\n");
        _conditionalHeaders = Ascii(common + "If-Match: *\r\nAccept: application/json;odata=nometadata\r\nContent-Type: application/json\r\n\r\n");
        _deleteHeaders = Ascii(common + "If-Match: *\r\nAccept: application/json;odata=nometadata\r\n\r\n");
    }

    /// <summary>The request's <c>Content-Type</c> for a body written with <paramref name="batchBoundary"/>.</summary>
    public static string ContentType(string batchBoundary) => "multipart/mixed; boundary=" + batchBoundary;

    /// <summary>
    /// Writes the batch: Upsert is a PUT and Merge a MERGE without If-Match (insert-or-replace, insert-or-merge);
    /// Insert a POST to the table; Replace a PUT and Delete a DELETE with <c>If-Match: *</c>.
    /// </summary>
    public void Write(IBufferWriter<byte> buffer, EntityBatch batch, string batchBoundary, string changesetBoundary)
    {
        var (method, headers) = batch.Mode switch
        {
            WriteMode.Upsert => (s_put, _requestHeaders),
            WriteMode.Merge => (s_merge, _requestHeaders),
            WriteMode.Insert => (s_post, _insertHeaders),
            WriteMode.Replace => (s_put, _conditionalHeaders),
            WriteMode.Delete => (s_delete, _deleteHeaders),
            _ => throw new ArgumentOutOfRangeException(nameof(batch), batch.Mode, "unknown write mode"),
        };

        using var json = new Utf8JsonWriter(buffer, JsonText.WriterOptions);
        Text(buffer, "--");
        Text(buffer, batchBoundary);
        Text(buffer, "\r\nContent-Type: multipart/mixed; boundary=");
        Text(buffer, changesetBoundary);
        Text(buffer, "\r\n\r\n");
        foreach (var entity in batch.Entities)
        {
            Text(buffer, "--");
            Text(buffer, changesetBoundary);
            Text(buffer, "\r\n");
            buffer.Write(s_partHeader);
            buffer.Write(method);
            buffer.Write(_tableUrl);
            if (batch.Mode != WriteMode.Insert)
            {
                // PUT, MERGE and DELETE address the entity; POST addresses the table and the keys travel in the body.
                Text(buffer, "(PartitionKey='");
                Key(buffer, entity.PartitionKey);
                Text(buffer, "',RowKey='");
                Key(buffer, entity.RowKey);
                Text(buffer, "')");
            }

            Text(buffer, " HTTP/1.1\r\n");
            buffer.Write(headers);
            if (batch.Mode != WriteMode.Delete)
            {
                json.Reset(buffer);
                WriteEntity(json, entity);
                json.Flush();
            }

            Text(buffer, "\r\n");
        }

        Text(buffer, "--");
        Text(buffer, changesetBoundary);
        Text(buffer, "--\r\n--");
        Text(buffer, batchBoundary);
        Text(buffer, "--\r\n");
    }

    /// <summary>The entity's JSON as the SDK writes a <c>TableEntity</c>: the keys, then each property, annotated with its EDM type where JSON alone cannot tell it.</summary>
    private static void WriteEntity(Utf8JsonWriter json, LoadEntity entity)
    {
        Span<char> scratch = stackalloc char[32];
        json.WriteStartObject();
        json.WriteString("PartitionKey"u8, entity.PartitionKey);
        json.WriteString("RowKey"u8, entity.RowKey);
        foreach (var property in entity.PropertySpan)
        {
            var name = property.Name;
            switch (property.Type)
            {
                case ColumnType.String:
                    json.WriteString(name, property.AsString());
                    break;
                case ColumnType.Json:
                    // Table Storage has no nested values: the JSON text is stored as a string, as the SDK path stores it.
                    json.WriteString(name, property.AsJson());
                    break;
                case ColumnType.Int32:
                    json.WriteNumber(name, property.AsInt32());
                    break;
                case ColumnType.Boolean:
                    json.WriteBoolean(name, property.AsBoolean());
                    break;
                case ColumnType.Int64:
                    property.AsInt64().TryFormat(scratch, out var length, provider: CultureInfo.InvariantCulture);
                    json.WriteString(name, scratch[..length]);
                    Annotate(json, name, "Edm.Int64"u8);
                    break;
                case ColumnType.Double:
                    var number = property.AsDouble();
                    if (double.IsFinite(number))
                    {
                        json.WriteNumber(name, number);
                    }
                    else
                    {
                        // JSON has no infinity; the service takes it as a string annotated Edm.Double.
                        json.WriteString(name, number > 0 ? "Infinity" : "-Infinity");
                    }

                    // Always annotated: an integral double such as 5.0 would otherwise be stored as Int32.
                    Annotate(json, name, "Edm.Double"u8);
                    break;
                case ColumnType.DateTime:
                    property.AsDateTime().TryFormat(scratch, out var written, JsonText.UtcDateTimeFormat, CultureInfo.InvariantCulture);
                    json.WriteString(name, scratch[..written]);
                    Annotate(json, name, "Edm.DateTime"u8);
                    break;
                case ColumnType.Guid:
                    json.WriteString(name, property.AsGuid());
                    Annotate(json, name, "Edm.Guid"u8);
                    break;
                case ColumnType.Binary:
                    json.WriteBase64String(name, property.AsBinary().Span);
                    Annotate(json, name, "Edm.Binary"u8);
                    break;
                default:
                    throw new ArgumentOutOfRangeException(nameof(entity), property.Type, "unknown column type");
            }
        }

        json.WriteEndObject();
    }

    private static void Annotate(Utf8JsonWriter json, string name, ReadOnlySpan<byte> edmType)
    {
        // The annotation's name is the property's and a suffix: put together on the stack, not as a string per row.
        var length = name.Length + EdmTypeSuffix.Length;
        var annotation = length <= 512 ? stackalloc char[length] : new char[length];
        name.CopyTo(annotation);
        EdmTypeSuffix.CopyTo(annotation[name.Length..]);
        json.WriteString(annotation, edmType);
    }

    /// <summary>A key as an OData string literal in the request line: quotes doubled, then percent-encoded.</summary>
    private static void Key(IBufferWriter<byte> buffer, string key)
    {
        if (key.AsSpan().ContainsAnyExcept(s_unreserved))
        {
            key = Uri.EscapeDataString(key.Replace("'", "''", StringComparison.Ordinal));
        }

        Text(buffer, key);
    }

    /// <summary>ASCII text: boundaries, keys as escaped, fixed parts of the request lines.</summary>
    private static void Text(IBufferWriter<byte> buffer, string text)
    {
        var span = buffer.GetSpan(text.Length);
        buffer.Advance(Encoding.ASCII.GetBytes(text, span));
    }

    private static byte[] Ascii(string text) => Encoding.ASCII.GetBytes(text);
}
