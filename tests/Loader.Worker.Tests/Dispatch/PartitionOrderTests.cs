using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Tests.Dispatch;

/// <summary>Ordering and parallelism of dispatch, on real loads into Azurite with chosen batches held back.</summary>
public sealed class PartitionOrderTests(AzuriteFixture azurite) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private async Task<(LoaderRun Run, ObservedAdapter Adapter)> LoadAsync(
        string csv, string table, int parallel, Func<EntityBatch, TimeSpan>? delay = null, Func<EntityBatch, CancellationToken, Task>? hold = null)
    {
        ObservedAdapter? observed = null;
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv),
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = table,
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:BatchSize"] = "10",
            ["Loader:MaxParallelBatches"] = parallel.ToString(System.Globalization.CultureInfo.InvariantCulture),
        };
        var run = await LoaderRunner.RunAsync(settings, _cancellation, services => services.AddSingleton<IBackendAdapter>(provider =>
            observed = new ObservedAdapter(
                BackendFactory.Create(provider.GetRequiredService<IOptions<LoaderOptions>>().Value, TimeProvider.System),
                delay,
                hold)));
        return (run, observed!);
    }

    [Fact]
    public async Task A_later_batch_of_a_key_waits_for_the_earlier_one_even_when_the_earlier_is_slow()
    {
        // Each of 5 partitions gets 30 rows: three batches of 10, every row key written once per batch with the
        // batch number as value. The first batch of p0 is held at the adapter until the other partitions' 12 batches
        // have all arrived there — the last of them read after every batch of p0 — so a dispatcher that sent a key's
        // batches side by side has sent p0's later ones by then: they meet the held one in the adapter, land first,
        // and batch 1's values win. No timer decides it: the gate opens on what the dispatcher did.
        var csv = new CsvText("pk", "rk", "v");
        for (var round = 1; round <= 3; round++)
        {
            for (var p = 0; p < 5; p++)
            {
                for (var k = 0; k < 10; k++)
                {
                    csv.Row($"p{p}", $"k{k}", round);
                }
            }
        }

        var othersArrived = 0;
        var othersAllArrived = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task HoldTheFirstBatchOfP0(EntityBatch batch, CancellationToken cancellationToken)
        {
            if (batch.PartitionKey != "p0")
            {
                if (Interlocked.Increment(ref othersArrived) == 12)
                {
                    othersAllArrived.SetResult();
                }

                return Task.CompletedTask;
            }

            return batch.Entities.Any(e => e.Origin.Record <= 10) ? othersAllArrived.Task.WaitAsync(cancellationToken) : Task.CompletedTask;
        }

        var table = AzuriteFixture.UniqueTableName();
        var (run, adapter) = await LoadAsync(csv.ToString(), table, parallel: 16, hold: HoldTheFirstBatchOfP0);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(1, adapter.MaxInFlightOfOnePartition);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(50, stored.Count);
        Assert.All(stored.Values, entity => Assert.Equal("3", entity.Properties["v"]));
        Assert.True(adapter.MaxInFlight > 1, "partitions should still be written in parallel: p0's first batch was held while others went");
    }

    [Fact]
    public async Task Batches_in_flight_never_exceed_the_limit_and_do_run_in_parallel()
    {
        var csv = new CsvText("pk", "rk");
        for (var i = 0; i < 2_000; i++)
        {
            csv.Row($"p{i % 40}", $"r{i}");
        }

        var (run, adapter) = await LoadAsync(csv.ToString(), AzuriteFixture.UniqueTableName(), parallel: 6, delay: _ => TimeSpan.FromMilliseconds(20));

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(2_000, run.RequireReport().RowsWritten);
        Assert.InRange(adapter.MaxInFlight, 2, 6);
        Assert.Equal(run.RequireReport().Requests, adapter.Calls);
    }
}
