using Loader.Abstractions;
using Loader.ThrottlingSimulator;
using static Loader.Worker.Tests.Simulator.SimulatorBatches;

namespace Loader.Worker.Tests.Simulator;

public sealed class RequestCostModelTests
{
    [Theory]
    [InlineData(0, 5)]
    [InlineData(1, 5)]
    [InlineData(1024, 5)]
    [InlineData(1025, 10)]
    [InlineData(2048, 10)]
    [InlineData(4 * 1024 * 1024, 5 * 4096)]
    public void An_operation_costs_per_started_kilobyte_and_at_least_one(int bodyBytes, double expected) =>
        Assert.Equal(expected, RequestCostModel.OperationCharge(bodyBytes, RequestCostModel.DefaultRuPerKilobyte));

    [Fact]
    public void A_batch_costs_the_sum_of_its_operations()
    {
        // Bodies of 40, 1024, 1025 and 5008 bytes ({"PartitionKey":"p","RowKey":"a","d":""} is 40): 1 + 1 + 2 + 5 kilobytes.
        var batch = Batch(WriteMode.Upsert, Entity("p", "a", 0), Entity("p", "b", 984), Entity("p", "c", 985), Entity("p", "d", 4968));

        var charge = RequestCostModel.BatchCharge(MultipartBatchScanner.Scan(Body(batch)), ruPerKilobyte: 2.5);

        Assert.Equal(9 * 2.5, charge);
    }
}
