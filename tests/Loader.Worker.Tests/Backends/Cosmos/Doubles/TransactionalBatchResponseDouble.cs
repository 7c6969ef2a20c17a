using System.Net;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos.Doubles;

/// <summary>TEST DOUBLE of the SDK's <see cref="TransactionalBatchResponse"/> (the type is built to be subclassed in tests).</summary>
internal sealed class TransactionalBatchResponseDouble : TransactionalBatchResponse
{
    private readonly IReadOnlyList<TransactionalBatchOperationResult> _results;
    private readonly HttpStatusCode _status;
    private readonly double _charge;
    private readonly TimeSpan? _retryAfter;
    private readonly string? _error;

    private TransactionalBatchResponseDouble(HttpStatusCode status, IReadOnlyList<TransactionalBatchOperationResult> results, double charge, TimeSpan? retryAfter, string? error)
    {
        _status = status;
        _results = results;
        _charge = charge;
        _retryAfter = retryAfter;
        _error = error;
    }

    public override HttpStatusCode StatusCode => _status;

    public override bool IsSuccessStatusCode => (int)StatusCode is >= 200 and < 300;

    public override double RequestCharge => _charge;

    public override TimeSpan? RetryAfter => _retryAfter;

    public override string? ErrorMessage => _error;

    public override int Count => _results.Count;

    public override TransactionalBatchOperationResult this[int index] => _results[index];

    public override IEnumerator<TransactionalBatchOperationResult> GetEnumerator() => _results.GetEnumerator();

    public static TransactionalBatchResponseDouble Succeeded(int operations, double charge) =>
        new(HttpStatusCode.OK, [.. Enumerable.Range(0, operations).Select(_ => new OperationResultDouble(HttpStatusCode.OK))], charge, null, null);

    /// <summary>As the service answers a failed transaction: the failing operation's status, 424 for the others.</summary>
    public static TransactionalBatchResponseDouble Failed(int operations, int failing, HttpStatusCode status, double charge, string error, TimeSpan? retryAfter = null) =>
        new(
            status,
            [.. Enumerable.Range(0, operations).Select(i => new OperationResultDouble(i == failing ? status : HttpStatusCode.FailedDependency, i == failing ? retryAfter : null))],
            charge,
            retryAfter,
            error);

    /// <summary>A 429 for the whole transaction.</summary>
    public static TransactionalBatchResponseDouble Throttled(int operations, TimeSpan retryAfter) =>
        Failed(operations, 0, (HttpStatusCode)429, 0, "Request rate is large", retryAfter);

    protected override void Dispose(bool disposing) => base.Dispose(disposing);
}

/// <summary>TEST DOUBLE of the SDK's <see cref="TransactionalBatchOperationResult"/>.</summary>
internal sealed class OperationResultDouble(HttpStatusCode status, TimeSpan? retryAfter = null) : TransactionalBatchOperationResult
{
    public override HttpStatusCode StatusCode => status;

    public override bool IsSuccessStatusCode => (int)StatusCode is >= 200 and < 300;

    public override TimeSpan RetryAfter => retryAfter ?? TimeSpan.Zero;
}
