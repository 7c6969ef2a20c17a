using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>The service goes away for a few seconds mid-load and comes back: the load rides through on retries.</summary>
public sealed class OutageTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Azurite_stopped_for_a_few_seconds_mid_load_and_started_again_loses_nothing()
    {
        const int Rows = 40_000;
        // On disk, so what Azurite acknowledged before the outage is still there after it.
        await using var service = await AzuriteProcess.StartAsync(location: _directory.File("azurite"), cancellationToken: _cancellation);
        var csv = new CsvText("pk", "rk", "n");
        for (var i = 1; i <= Rows; i++)
        {
            csv.Row($"p{i % 200}", $"r{i:D6}", i);
        }

        var table = AzuriteFixture.UniqueTableName("outage");
        // Once 5,000 rows have gone out, every further batch waits for the outage: the load is still running when
        // Azurite stops, and the held batches meet it, however fast the machine is.
        var outage = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var sent = 0L;
        Task HoldUntilTheOutage(EntityBatch batch, CancellationToken cancellationToken) =>
            Interlocked.Add(ref sent, batch.Entities.Count) - batch.Entities.Count < 5_000 ? Task.CompletedTask : outage.Task.WaitAsync(cancellationToken);
        var load = LoaderRunner.Start(new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = service.ConnectionString,
            ["Loader:Tables:Table"] = table,
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Columns:n"] = "Int32",
            ["Loader:MaxBufferedRows"] = "2000",
        }, _cancellation, services => services.AddSingleton<IBackendAdapter>(provider => new ObservedAdapter(
            BackendFactory.Create(provider.GetRequiredService<IOptions<LoaderOptions>>().Value, TimeProvider.System), hold: HoldUntilTheOutage)));

        await load.WhenWrittenAsync(5_000, _cancellation);
        await service.StopGracefullyAsync();
        outage.SetResult();
        await Task.Delay(TimeSpan.FromSeconds(4), _cancellation);
        await service.StartAsync(_cancellation);
        var run = await load.Completion;

        var report = run.RequireReport();
        Assert.True(ExitCodes.Success == run.ExitCode, $"exit {run.ExitCode}: {run.Summary}{Environment.NewLine}{run.Logs.AllText}");
        Assert.Equal((Rows, Rows, 0L), (report.RowsRead, report.RowsWritten, report.RowsFailed));
        Assert.True(report.Retries > 0, "the batches held until the outage should have cost retries");
        var stored = await AzuriteFixture.ReadTableAsync(service.ConnectionString, table, _cancellation);
        Assert.Equal(Rows, stored.Count);
        Assert.All(stored, pair => Assert.Equal(int.Parse(pair.Key.Item2[1..], CultureInfo.InvariantCulture), pair.Value.Properties["n"]));
        Measurements.Record(string.Create(CultureInfo.InvariantCulture, $"Azurite away 4 s mid-load: {report.Retries} retries, {report.RetryWaitSeconds:N1} s of retry waits summed over batches, {report.ElapsedSeconds:N1} s in all, {Rows:N0} of {Rows:N0} rows in the table"));
    }
}
