using System.Globalization;
using System.Net;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Json;
using Azure;
using Azure.Core;
using Azure.Core.Pipeline;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// A small client for the Table service REST protocol (Azure Storage, Azurite, Cosmos DB for Table) on the
/// Azure.Core pipeline. It exists because the team's NuGet mirror does not serve Azure.Data.Tables; it covers
/// what the loader needs: create and delete a table, submit an entity group transaction, query entities.
/// The pipeline's own retries are off: the loader retries, so every throttled answer is seen and counted.
/// </summary>
public sealed class TableRestClient
{
    private const string ServiceVersion = "2019-02-02";
    private const string StorageScope = "https://storage.azure.com/.default";
    private const string CosmosScope = "https://cosmos.azure.com/.default";

    private readonly HttpPipeline _pipeline;
    private readonly string? _sharedAccessSignature;

    private TableRestClient(Uri endpoint, HttpPipeline pipeline, string? sharedAccessSignature)
    {
        Endpoint = endpoint;
        _pipeline = pipeline;
        _sharedAccessSignature = sharedAccessSignature;
    }

    public Uri Endpoint { get; }

    public static TableRestClient FromConnectionString(string connectionString, TableRestClientOptions? options = null, TimeProvider? timeProvider = null)
    {
        var parsed = TableConnectionString.Parse(connectionString);
        options ??= new TableRestClientOptions();
        HttpPipelinePolicy[] auth = parsed.AccountKey is { } key
            ? [new SharedKeyLiteAuthenticationPolicy(parsed.AccountName!, key, timeProvider ?? TimeProvider.System)]
            : [];
        return new TableRestClient(parsed.TableEndpoint, Build(options, auth), parsed.AccountKey is null ? parsed.SharedAccessSignature : null);
    }

    public static TableRestClient FromCredential(Uri endpoint, TokenCredential credential, TableRestClientOptions? options = null)
    {
        var scope = endpoint.Host.EndsWith(".cosmos.azure.com", StringComparison.OrdinalIgnoreCase) ? CosmosScope : StorageScope;
        return new TableRestClient(endpoint, Build(options ?? new TableRestClientOptions(), [new BearerTokenAuthenticationPolicy(credential, scope)]), null);
    }

    private static HttpPipeline Build(TableRestClientOptions options, HttpPipelinePolicy[] perRetryPolicies) =>
        HttpPipelineBuilder.Build(options, [], perRetryPolicies, new ResponseClassifier());

    /// <summary>Creates the table; true when it was created, false when it already existed.</summary>
    public async Task<Response<bool>> CreateTableIfNotExistsAsync(string table, CancellationToken cancellationToken)
    {
        using var message = CreateMessage(RequestMethod.Post, "Tables");
        message.Request.Headers.SetValue("Content-Type", "application/json;odata=nometadata");
        message.Request.Headers.SetValue("Prefer", "return-no-content");
        message.Request.Content = RequestContent.Create(Encoding.UTF8.GetBytes(JsonSerializer.Serialize(new Dictionary<string, string> { ["TableName"] = table })));
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        var response = message.Response;
        return response.Status switch
        {
            (int)HttpStatusCode.Created or (int)HttpStatusCode.NoContent => Response.FromValue(true, response),
            (int)HttpStatusCode.Conflict => Response.FromValue(false, response),
            _ => throw Failure(response, $"creating table '{table}'"),
        };
    }

    public async Task<Response> DeleteTableAsync(string table, CancellationToken cancellationToken)
    {
        using var message = CreateMessage(RequestMethod.Delete, $"Tables('{table}')");
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        return message.Response.Status is (int)HttpStatusCode.NoContent or (int)HttpStatusCode.NotFound
            ? message.Response
            : throw Failure(message.Response, $"deleting table '{table}'");
    }

    /// <summary>
    /// Sends the batch as one entity group transaction and returns what the service said, whatever it said:
    /// throttling and refused operations are results here, not exceptions. Transport failures throw.
    /// </summary>
    public async Task<TableTransactionResult> SubmitTransactionAsync(TableTransactionContent content, EntityBatch batch, CancellationToken cancellationToken)
    {
        var batchBoundary = "batch_" + Guid.NewGuid().ToString("N");
        var changesetBoundary = "changeset_" + Guid.NewGuid().ToString("N");
        using var message = CreateMessage(RequestMethod.Post, "$batch");
        message.Request.Headers.SetValue("Content-Type", TableTransactionContent.ContentType(batchBoundary));
        message.Request.Content = RequestContent.Create(content.Build(batch, batchBoundary, changesetBoundary));
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        return TableTransactionResult.From(message.Response);
    }

    /// <summary>Inserts or replaces one entity with a single request (no transaction): the one-request-per-row way.</summary>
    public async Task<Response> UpsertEntityAsync(string table, LoadEntity entity, CancellationToken cancellationToken)
    {
        var path = $"{table}(PartitionKey='{TableTransactionContent.EscapeKey(entity.PartitionKey)}',RowKey='{TableTransactionContent.EscapeKey(entity.RowKey)}')";
        using var message = CreateMessage(RequestMethod.Put, path);
        message.Request.Headers.SetValue("Content-Type", "application/json");
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(Math.Max(256, entity.PayloadBytes));
        using (var json = new Utf8JsonWriter(buffer, JsonText.WriterOptions))
        {
            json.WriteStartObject();
            EdmJson.WriteProperties(json, entity.Properties);
            json.WriteEndObject();
        }

        message.Request.Content = RequestContent.Create(buffer.WrittenMemory);
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        return message.Response.Status == (int)HttpStatusCode.NoContent
            ? message.Response
            : throw Failure(message.Response, $"writing entity to '{table}'");
    }

    /// <summary>Reads every entity of a table matching an optional OData filter, following continuation tokens.</summary>
    public async IAsyncEnumerable<TableEntity> QueryAsync(string table, string? filter, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        string? nextPartitionKey = null, nextRowKey = null;
        do
        {
            var query = new StringBuilder($"{table}()?");
            if (!string.IsNullOrEmpty(filter))
            {
                query.Append("$filter=").Append(Uri.EscapeDataString(filter)).Append('&');
            }

            if (nextPartitionKey is not null)
            {
                query.Append("NextPartitionKey=").Append(Uri.EscapeDataString(nextPartitionKey)).Append('&');
                if (nextRowKey is not null)
                {
                    query.Append("NextRowKey=").Append(Uri.EscapeDataString(nextRowKey)).Append('&');
                }
            }

            using var message = CreateMessage(RequestMethod.Get, query.ToString().TrimEnd('&', '?'));
            message.Request.Headers.SetValue("Accept", "application/json;odata=fullmetadata");
            await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
            var response = message.Response;
            if (response.Status != (int)HttpStatusCode.OK)
            {
                throw Failure(response, $"querying table '{table}'");
            }

            using (var document = JsonDocument.Parse(response.Content.ToMemory()))
            {
                foreach (var element in document.RootElement.GetProperty("value").EnumerateArray())
                {
                    yield return EdmJson.ReadEntity(element);
                }
            }

            response.Headers.TryGetValue("x-ms-continuation-NextPartitionKey", out nextPartitionKey);
            response.Headers.TryGetValue("x-ms-continuation-NextRowKey", out nextRowKey);
        }
        while (nextPartitionKey is not null);
    }

    private HttpMessage CreateMessage(RequestMethod method, string relativePath)
    {
        var message = _pipeline.CreateMessage();
        var request = message.Request;
        request.Method = method;
        var uri = Endpoint.AbsoluteUri.TrimEnd('/') + "/" + relativePath;
        if (_sharedAccessSignature is not null)
        {
            uri += (uri.Contains('?', StringComparison.Ordinal) ? "&" : "?") + _sharedAccessSignature;
        }

        request.Uri.Reset(new Uri(uri));
        request.Headers.SetValue("x-ms-version", ServiceVersion);
        request.Headers.SetValue("DataServiceVersion", "3.0");
        request.Headers.SetValue("MaxDataServiceVersion", "3.0;NetFx");
        request.Headers.SetValue("Accept", "application/json;odata=nometadata");
        return message;
    }

    private static RequestFailedException Failure(Response response, string action)
    {
        var (code, text) = TableServiceError.Parse(response.Content.ToString());
        var detail = string.IsNullOrEmpty(code) ? text : $"{code}: {text}";
        return new RequestFailedException(response.Status, string.Create(CultureInfo.InvariantCulture, $"{action} failed with {response.Status} {response.ReasonPhrase}. {detail}").Trim(), code, null);
    }
}
