using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Security;
using Loader.Worker.Shards;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Storage.Blobs;

namespace Loader.Worker.Tests.Shards;

/// <summary>A sharded load's state folder on Azurite: what it keeps of a shard goes through the host's redaction.</summary>
public sealed class ShardStateStoreTests(BlobAzuriteFixture fixture) : IClassFixture<BlobAzuriteFixture>
{
    private const string Key = "c2hhcmQtc3RhdGUta2V5";

    [Fact]
    public async Task A_shards_state_is_stored_without_the_secrets_its_message_quoted()
    {
        var cancellation = TestContext.Current.CancellationToken;
        var container = await fixture.CreateContainerAsync(cancellation);
        var blobs = new BlobClientFactory(new BlobOptions { ConnectionString = fixture.Azurite.ConnectionString });
        var store = new ShardStateStore(blobs, $"{fixture.Azurite.BlobEndpoint}/{container}/load/", new Redaction([Key]));
        var state = new ShardState
        {
            LoadId = "load",
            Shard = "s0001",
            Status = ShardStatus.Failed,
            UpdatedAt = DateTimeOffset.UnixEpoch,
            Message = $"Unavailable: key {Key} refused at https://acct.table.core.windows.net/?sv=1&sig=abc",
        };

        Assert.True(await store.TryCreateStateAsync(state, cancellation));

        var stored = (await fixture.Blob(container, "load/shards/s0001/state.json").DownloadContentAsync(cancellation)).Value.Content.ToString();
        Assert.DoesNotContain(Key, stored, StringComparison.Ordinal);
        Assert.DoesNotContain("sig=abc", stored, StringComparison.Ordinal);
        Assert.Equal("Unavailable: key (removed) refused at https://acct.table.core.windows.net/?sv=(removed)&sig=(removed)", (await store.ReadStateAsync("s0001", cancellation)).State!.Message);
    }

    /// <summary>A part's name looks like a secret to the rule (a folder named <c>customer_key=5</c>), and a worker finds the part by it.</summary>
    [Fact]
    public async Task The_manifest_keeps_the_names_of_the_parts_as_they_are()
    {
        var cancellation = TestContext.Current.CancellationToken;
        var container = await fixture.CreateContainerAsync(cancellation);
        var store = new ShardStateStore(new BlobClientFactory(new BlobOptions { ConnectionString = fixture.Azurite.ConnectionString }), $"{fixture.Azurite.BlobEndpoint}/{container}/load/", Redaction.Rule);
        string[] parts = ["exports/customer_key=5/part.csv", "exports/customer_key=6/part.csv"];
        var manifest = new LoadManifest
        {
            LoadId = "load",
            CreatedAt = DateTimeOffset.UnixEpoch,
            By = ShardKind.Range,
            Input = "https://acct.blob.core.windows.net/in/exports/",
            InputIdentity = new InputIdentity("https://acct.blob.core.windows.net/in/exports/", 20, "2 parts"),
            Settings = new Dictionary<string, string>(),
            Queue = "https://acct.queue.core.windows.net/shards",
            Shards = [.. parts.Select((part, i) => new ShardSpec { Id = ShardedLoad.ShardId(i), Part = part, PartLength = 10, End = 10 })],
        };

        Assert.True(await store.TryCreateManifestAsync(manifest, cancellation));

        Assert.Equal(parts, (await store.ReadManifestAsync(cancellation))!.Shards.Select(shard => shard.Part));
    }
}
