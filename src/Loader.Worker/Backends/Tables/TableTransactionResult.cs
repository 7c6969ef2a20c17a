using System.Globalization;
using Azure;

namespace Loader.Worker.Backends.Tables;

/// <summary>The service's answer to one transaction: the HTTP status, the per-operation answers and the pacing headers.</summary>
public sealed record TableTransactionResult
{
    public required int StatusCode { get; init; }

    internal TableTransactionResponse? Operations { get; init; }

    public string ErrorCode { get; init; } = "";

    public string ErrorMessage { get; init; } = "";

    /// <summary><c>x-ms-request-charge</c>: sent by Cosmos DB for Table, not by Azure Storage.</summary>
    public double? RequestCharge { get; init; }

    /// <summary><c>x-ms-retry-after-ms</c> or <c>Retry-After</c>, when the service gave one.</summary>
    public TimeSpan? RetryAfter { get; init; }

    internal static TableTransactionResult From(Response response)
    {
        var result = new TableTransactionResult
        {
            StatusCode = response.Status,
            RequestCharge = ReadDouble(response, "x-ms-request-charge"),
            RetryAfter = ReadRetryAfter(response),
        };

        if (response.Status == 202)
        {
            return result with { Operations = TableTransactionResponse.Parse(response.Content.ToMemory().Span) };
        }

        var (code, message) = TableServiceError.Parse(response.Content.ToString());
        return result with { ErrorCode = code, ErrorMessage = message };
    }

    private static double? ReadDouble(Response response, string header) =>
        response.Headers.TryGetValue(header, out var text)
        && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value)
            ? value
            : null;

    private static TimeSpan? ReadRetryAfter(Response response)
    {
        if (ReadDouble(response, "x-ms-retry-after-ms") is { } milliseconds)
        {
            return TimeSpan.FromMilliseconds(milliseconds);
        }

        return ReadDouble(response, "Retry-After") is { } seconds ? TimeSpan.FromSeconds(seconds) : null;
    }
}
