using System.Buffers;
using System.Collections.Concurrent;
using Azure;
using Azure.Core;
using Azure.Core.Pipeline;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Sends a batch as one entity group transaction through an Azure.Core <see cref="HttpPipeline"/> built from the
/// SDK's <c>TableClientOptions</c> (its transport, retry, logging and credential policies), with a body written by
/// <see cref="TableTransactionBody"/> into a reused buffer, and reads the answer once for the operations' statuses
/// (<see cref="TableTransactionAnswer"/>). What the SDK's <c>SubmitTransactionAsync</c> does, without a request and a
/// response object per operation.
/// </summary>
internal sealed class TableTransactionSender
{
    /// <summary>The service version the requests name: the one Azure.Data.Tables sends.</summary>
    public const string ServiceVersion = "2020-12-06";

    // Buffers kept for reuse: about one per batch in flight; a larger one (a batch near the 4 MiB limit) is let go.
    private const int MaxPooledBuffers = 64;
    private const int MaxPooledBytes = 1 << 20;

    private readonly HttpPipeline _pipeline;
    private readonly Uri _batchUri;
    private readonly TableSignature? _signature;
    private readonly TableTransactionBody _body;
    private readonly ConcurrentQueue<ArrayBufferWriter<byte>> _buffers = new();

    /// <param name="pipeline">The pipeline, with the credential policy when the requests are signed by one (Entra ID).</param>
    /// <param name="serviceEndpoint">The Table service's endpoint, without a signature.</param>
    /// <param name="table">The target table.</param>
    /// <param name="signature">The shared access signature every request carries on its URL, if requests are signed so.</param>
    public TableTransactionSender(HttpPipeline pipeline, Uri serviceEndpoint, string table, TableSignature? signature)
    {
        _pipeline = pipeline;
        _batchUri = new Uri(serviceEndpoint.AbsoluteUri.TrimEnd('/') + "/$batch");
        _signature = signature;
        _body = new TableTransactionBody(serviceEndpoint, table);
    }

    /// <summary>
    /// Sends the batch and classifies whatever the service answered; a request that got no answer throws, as the
    /// pipeline threw, and an answer that cannot be read throws <see cref="InvalidDataException"/>.
    /// </summary>
    public async Task<BatchOutcome> SendAsync(EntityBatch batch, Func<TimeSpan> latency, CancellationToken cancellationToken)
    {
        if (!_buffers.TryDequeue(out var buffer))
        {
            buffer = new ArrayBufferWriter<byte>(64 * 1024);
        }

        var batchBoundary = "batch_" + Guid.NewGuid().ToString("D");
        _body.Write(buffer, batch, batchBoundary, "changeset_" + Guid.NewGuid().ToString("D"));
        BatchOutcome outcome;
        using (var message = _pipeline.CreateMessage())
        {
            var request = message.Request;
            request.Method = RequestMethod.Post;
            request.Uri.Reset(_batchUri);
            if (_signature is not null)
            {
                request.Uri.Query = "?" + _signature.Current;
            }

            request.Headers.SetValue("x-ms-version", ServiceVersion);
            request.Headers.SetValue("DataServiceVersion", "3.0");
            request.Headers.SetValue("Accept", "application/json");
            request.Headers.SetValue("Content-Type", TableTransactionBody.ContentType(batchBoundary));
            request.Content = RequestContent.Create(buffer.WrittenMemory);
            await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
            outcome = Classify(message.Response, batch, latency()) with { RequestBytes = buffer.WrittenCount };
        }

        // Only after an answer: a request that threw may still have its body in the transport's hands.
        if (buffer.Capacity <= MaxPooledBytes && _buffers.Count < MaxPooledBuffers)
        {
            buffer.ResetWrittenCount();
            _buffers.Enqueue(buffer);
        }

        return outcome;
    }

    private static BatchOutcome Classify(Response response, EntityBatch batch, TimeSpan latency)
    {
        var headers = TableResponseHeaders.Read(response.Headers);
        if (response.Status is >= 200 and < 300)
        {
            var answer = TableTransactionAnswer.Parse(response.Content.ToMemory().Span);
            if (answer.Failure is { } failure)
            {
                return TableOutcomes.Refused(failure.Status, failure.Code, failure.Message, failure.Index, operationFailed: true, headers, batch, latency);
            }

            return answer.Operations == batch.Entities.Count
                ? BatchOutcome.Written(response.Status, latency, headers.RequestCharge)
                : throw new InvalidDataException($"the answer to a transaction of {batch.Entities.Count} operations holds {answer.Operations} statuses");
        }

        // The request as a whole was refused (throttled, not authorized, no such table ...): no operation is to blame.
        var (code, text) = TableServiceError.Read(response.Content.ToMemory().Span);
        if (code.Length == 0 && response.Headers.TryGetValue("x-ms-error-code", out var headerCode))
        {
            code = headerCode;
        }

        var message = TableServiceError.SplitIndex(text.Length > 0 ? text : response.ReasonPhrase).Text;
        return TableOutcomes.Refused(response.Status, code, message, index: null, operationFailed: false, headers, batch, latency);
    }
}
