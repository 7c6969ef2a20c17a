using System.Globalization;
using System.Text;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Specialized;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Shards;
using Loader.Worker.Shards.Work;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Tests.Shards.Work;

/// <summary>
/// One shard's run as the host composes it, on Azurite: its report goes to the state folder through the one report
/// publisher, so a report that cannot be stored is judged as a load's is.
/// </summary>
public sealed class ShardRunTests
{
    private const string StateContainer = "state";
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    /// <summary>
    /// A shard stopped on request whose report cannot be stored (another client holds a lease on the blob, so every write
    /// is refused, while the probe beside it passes): its report and its outcome say Stopped and exit 5, as a load's would.
    /// </summary>
    [Fact]
    public async Task A_stopped_shard_whose_report_cannot_be_stored_says_stopped_with_the_exit_code_of_a_stop()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        var blobs = new BlobServiceClient(azurite.ConnectionString);
        var input = blobs.GetBlobContainerClient("input");
        await input.CreateIfNotExistsAsync(cancellationToken: _cancellation);
        var csv = new StringBuilder("pk,rk,n\n");
        for (var i = 0; i < 500; i++)
        {
            csv.Append(CultureInfo.InvariantCulture, $"p{i % 7},r{i:D5},{i}\n");
        }

        await input.GetBlobClient("lost/rows.csv").UploadAsync(BinaryData.FromString(csv.ToString()), _cancellation);
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = $"{azurite.BlobEndpoint}/input/lost/",
            ["Loader:Blob:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("lostshard"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Shards:State"] = $"{azurite.BlobEndpoint}/{StateContainer}/lost/",
            ["Loader:Shards:Queue"] = $"{azurite.QueueEndpoint}/lost-shards",
            ["Loader:Shards:By"] = "Range",
        };
        await using (var plan = LoaderProcess.Start("plan", settings))
        {
            var planExit = await plan.WaitForExitAsync(s_timeout, _cancellation);
            Assert.True(planExit == ExitCodes.Success, plan.Output);
        }

        using var host = LoaderHost.CreateBuilder([.. settings.Select(setting => $"--{setting.Key}={setting.Value}")]).Build();
        var load = host.Services.GetRequiredService<ShardedLoadFactory>().Create(host.Services.GetRequiredService<IOptions<LoaderOptions>>().Value.Shards);
        var manifest = (await load.Store.ReadManifestAsync(_cancellation))!;
        var shard = manifest.Shards[0];
        var report = blobs.GetBlobContainerClient(StateContainer).GetBlobClient($"lost/{ShardStateStore.ReportOf(shard.Id)}");
        await report.UploadAsync(BinaryData.FromString("{}"), _cancellation);
        await report.GetBlobLeaseClient().AcquireAsync(TimeSpan.FromSeconds(-1), cancellationToken: _cancellation);

        using var stop = new CancellationTokenSource();
        await stop.CancelAsync();
        var result = await host.Services.GetRequiredService<ShardRun>().RunAsync(manifest, shard, load.Store, stop.Token, CancellationToken.None);

        Assert.Equal(LoadOutcomeKind.Stopped, result.Outcome.Kind);
        Assert.Equal((result.Outcome.Name, ExitCodes.Stopped), (result.Report.Outcome, result.Report.ExitCode));
    }
}
