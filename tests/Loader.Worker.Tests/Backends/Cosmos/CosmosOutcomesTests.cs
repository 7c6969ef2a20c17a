using System.Net;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Backends.Cosmos.Doubles;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>How each Cosmos DB answer is classified: written, throttled, worth retrying, one row refused, or failed.</summary>
public sealed class CosmosOutcomesTests
{
    private static readonly TimeSpan s_latency = TimeSpan.FromMilliseconds(12);

    [Fact]
    public void A_successful_transaction_is_written_with_its_charge_and_latency()
    {
        var outcome = CosmosOutcomes.FromTransaction(TransactionalBatchResponseDouble.Succeeded(3, 30), s_latency, 31.5, merging: false);

        Assert.Equal((BatchStatus.Written, 200, 31.5, s_latency), (outcome.Status, outcome.StatusCode, outcome.RequestCharge, outcome.Latency));
        Assert.Null(outcome.Error);
    }

    [Fact]
    public void A_throttled_transaction_is_throttled_with_the_services_retry_after()
    {
        var outcome = CosmosOutcomes.FromTransaction(TransactionalBatchResponseDouble.Throttled(3, TimeSpan.FromMilliseconds(250)), s_latency, 0, merging: false);

        Assert.Equal((BatchStatus.Throttled, 1, TimeSpan.FromMilliseconds(250)), (outcome.Status, outcome.ThrottledResponses, outcome.RetryAfter));
        Assert.Equal("429: Request rate is large", outcome.Error);
    }

    [Theory]
    [InlineData(3200, 1, 0)]
    [InlineData(3212, 0, 1)]
    [InlineData(0, 0, 0)]
    public void A_429_is_counted_by_the_limit_its_sub_status_names(int subStatus, int budget, int bucket)
    {
        var outcome = CosmosOutcomes.FromException(new CosmosException("Request rate is large", (HttpStatusCode)429, subStatus, "a", 0), s_latency);

        Assert.Equal((BatchStatus.Throttled, 1, budget, bucket), (outcome.Status, outcome.ThrottledResponses, outcome.BudgetThrottledResponses, outcome.BucketThrottledResponses));
    }

    [Theory]
    [InlineData(408)]
    [InlineData(410)]
    [InlineData(449)]
    [InlineData(500)]
    [InlineData(502)]
    [InlineData(503)]
    [InlineData(504)]
    public void Timeouts_moves_and_server_errors_are_transient(int status)
    {
        var outcome = CosmosOutcomes.FromTransaction(TransactionalBatchResponseDouble.Failed(2, 0, (HttpStatusCode)status, 1, "busy"), s_latency, 1, merging: false);

        Assert.Equal(BatchStatus.Transient, outcome.Status);
        Assert.Equal($"{status}: busy", outcome.Error);
        Assert.Equal(BatchStatus.Transient, CosmosOutcomes.FromException(new CosmosException("busy", (HttpStatusCode)status, 0, "a", 0), s_latency).Status);
    }

    [Theory]
    [InlineData(501, false)]
    [InlineData(505, false)]
    [InlineData(507, false)]
    [InlineData(503, true)]
    [InlineData(449, true)]
    [InlineData(400, false)]
    public void One_rule_decides_what_is_transient_for_every_answer(int status, bool transient)
    {
        // The adapter's reads before a merge use the same rule as batches and bulk items (they once took any 5xx).
        Assert.Equal(transient, CosmosOutcomes.IsTransient(status));
        var outcome = CosmosOutcomes.FromTransaction(TransactionalBatchResponseDouble.Failed(2, 0, (HttpStatusCode)status, 1, "x"), s_latency, 1, merging: false);
        Assert.Equal(transient, outcome.Status == BatchStatus.Transient);
    }

    [Fact]
    public void A_conflict_refuses_the_failing_operation_alone_the_others_424_are_not_blamed()
    {
        var response = TransactionalBatchResponseDouble.Failed(3, 1, HttpStatusCode.Conflict, 2, "Entity with the specified id already exists in the system.\r\nActivityId: 1, diagnostics {...}");

        var outcome = CosmosOutcomes.FromTransaction(response, s_latency, 2, merging: false);

        Assert.Equal(BatchStatus.OperationsRejected, outcome.Status);
        var failure = Assert.Single(outcome.OperationFailures);
        Assert.Equal((1, 409, "an item with this id already exists in the partition"), (failure.Index, failure.StatusCode, failure.Message));
        Assert.Equal("409: Entity with the specified id already exists in the system.", outcome.Error); // the first line, no diagnostics
    }

    [Theory]
    [InlineData(404)]
    [InlineData(409)]
    [InlineData(412)]
    public void While_merging_an_item_changed_underneath_is_read_and_merged_again(int status)
    {
        var outcome = CosmosOutcomes.FromTransaction(TransactionalBatchResponseDouble.Failed(2, 1, (HttpStatusCode)status, 1, "changed"), s_latency, 1, merging: true);

        Assert.Equal(BatchStatus.Transient, outcome.Status);
        Assert.Equal($"item '1' changed while being merged ({status})", outcome.Error);
        Assert.Equal((false, false, true, null), CosmosOutcomes.FromItem(1, new ResponseMessage((HttpStatusCode)status), merging: true));
    }

    [Fact]
    public void Bulk_items_are_applied_throttled_transient_or_refused_with_their_index()
    {
        Assert.Equal((true, false, false, null), CosmosOutcomes.FromItem(0, new ResponseMessage(HttpStatusCode.Created), merging: false));
        Assert.Equal((false, true, false, null), CosmosOutcomes.FromItem(0, new ResponseMessage((HttpStatusCode)429), merging: false));
        Assert.Equal((false, false, true, null), CosmosOutcomes.FromItem(0, new ResponseMessage(HttpStatusCode.ServiceUnavailable), merging: false));

        var (applied, throttled, transient, failure) = CosmosOutcomes.FromItem(7, new ResponseMessage(HttpStatusCode.RequestEntityTooLarge), merging: false);

        Assert.False(applied || throttled || transient);
        Assert.Equal((7, 413, "the item is larger than Cosmos DB allows"), (failure!.Index, failure.StatusCode, failure.Message));
    }

    [Fact]
    public void A_bulk_write_is_written_when_every_item_applied_with_the_reads_charge_added()
    {
        var outcome = CosmosOutcomes.FromItems([Answer(HttpStatusCode.Created, 5), Answer(HttpStatusCode.OK, 5)], s_latency, readCharge: 2, merging: false);

        Assert.Equal((BatchStatus.Written, 200, 12.0, 2, s_latency), (outcome.Status, outcome.StatusCode, outcome.RequestCharge, outcome.Answers, outcome.Latency));
    }

    [Fact]
    public void A_bulk_write_in_part_names_what_applied_waits_the_longest_retry_after_and_refuses_rows_alone()
    {
        var responses = new[]
        {
            Answer(HttpStatusCode.Created, 5),
            Answer((HttpStatusCode)429, 1, retryAfterMs: "300"),
            Answer((HttpStatusCode)429, 1, retryAfterMs: "100"),
            Answer(HttpStatusCode.ServiceUnavailable, 0),
            Answer(HttpStatusCode.RequestEntityTooLarge, 0),
        };

        var throttled = CosmosOutcomes.FromItems(responses, s_latency, readCharge: 0, merging: false);

        Assert.Equal((BatchStatus.Throttled, 429, 2, TimeSpan.FromMilliseconds(300), 7.0), (throttled.Status, throttled.StatusCode, throttled.ThrottledResponses, throttled.RetryAfter, throttled.RequestCharge));
        Assert.Equal([0], throttled.AppliedOperations);
        Assert.Equal(4, Assert.Single(throttled.OperationFailures).Index);
        Assert.Equal("1 of 5 items written, 2 throttled, 1 to retry, 1 refused", throttled.Error);

        var refused = CosmosOutcomes.FromItems([Answer(HttpStatusCode.Created, 1), Answer(HttpStatusCode.Conflict, 1)], s_latency, readCharge: 0, merging: false);
        Assert.Equal((BatchStatus.OperationsRejected, 207), (refused.Status, refused.StatusCode));
        Assert.Equal(BatchStatus.Transient, CosmosOutcomes.FromItems([Answer(HttpStatusCode.Conflict, 1)], s_latency, 0, merging: true).Status);
    }

    private static ResponseMessage Answer(HttpStatusCode status, double charge, string? retryAfterMs = null)
    {
        var response = new ResponseMessage(status);
        response.Headers["x-ms-request-charge"] = charge.ToString(System.Globalization.CultureInfo.InvariantCulture);
        if (retryAfterMs is not null)
        {
            response.Headers["x-ms-retry-after-ms"] = retryAfterMs;
        }

        return response;
    }

    [Fact]
    public void A_refusal_of_the_whole_request_fails_it_naming_the_status_and_keeping_the_charge()
    {
        var outcome = CosmosOutcomes.FromException(new CosmosException("Forbidden\nmore", HttpStatusCode.Forbidden, 0, "a", 1.5), s_latency);

        Assert.Equal((BatchStatus.Failed, 403, 1.5), (outcome.Status, outcome.StatusCode, outcome.RequestCharge));
        Assert.StartsWith("403: ", outcome.Error, StringComparison.Ordinal);
        Assert.Equal(BatchStatus.Throttled, CosmosOutcomes.FromException(new CosmosException("slow down", (HttpStatusCode)429, 0, "a", 0), s_latency).Status);
    }
}
