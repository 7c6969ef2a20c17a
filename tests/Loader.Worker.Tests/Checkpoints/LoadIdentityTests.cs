using Loader.Worker.Checkpoints;
using Loader.Worker.Inputs;
using Loader.Worker.Outputs;
using Loader.Worker.Security;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Checkpoints;

/// <summary>
/// What ties a checkpoint to its load, now that a checkpoint is written through the redaction: a checkpoint of this
/// version and one of an earlier version (which may hold a value with its signature) both still belong to their load.
/// </summary>
public sealed class LoadIdentityTests : IDisposable
{
    private const string Endpoint = "https://acct.documents.azure.com/?token=dG9rZW4=";

    private readonly TestDirectory _directory = new();
    private readonly InputIdentity _input = new("https://acct.blob.core.windows.net/in/flights.csv", 1_000, "sha256 abc");

    public void Dispose() => _directory.Dispose();

    private static Dictionary<string, string> Settings(string endpoint) => new() { ["Loader:Cosmos:Endpoint"] = endpoint, ["Loader:PartitionKey"] = "{dest}" };

    private Checkpoint CheckpointOf(IReadOnlyDictionary<string, string> settings) =>
        new() { NextRecord = 5, HighestSent = 6, Completed = false, UpdatedAt = DateTimeOffset.UnixEpoch, Input = _input, Settings = settings };

    [Fact]
    public async Task A_checkpoint_is_written_without_secrets_and_still_belongs_to_its_load()
    {
        var store = new CheckpointStore(new LocalOutputFile(_directory.File("checkpoint.json"), new Redaction(["ZGFtYWdlLWtleQ=="])));

        await store.WriteAsync(CheckpointOf(Settings(Endpoint)) with { Damage = new InputDamage("a.csv.gz", 10, "the SDK said ZGFtYWdlLWtleQ==", "rest") }, TestContext.Current.CancellationToken);

        var text = await File.ReadAllTextAsync(_directory.File("checkpoint.json"), TestContext.Current.CancellationToken);
        Assert.DoesNotContain("dG9rZW4=", text, StringComparison.Ordinal);
        Assert.DoesNotContain("ZGFtYWdlLWtleQ==", text, StringComparison.Ordinal);
        var written = (await store.ReadAsync(TestContext.Current.CancellationToken))!;
        Assert.Equal("the SDK said (removed)", written.Damage!.Reason);
        Assert.Null(LoadIdentity.Mismatch(written, _input, Settings(Endpoint)));
    }

    [Fact]
    public void A_checkpoint_of_an_earlier_version_that_kept_a_signature_still_belongs_to_its_load()
    {
        Assert.Null(LoadIdentity.Mismatch(CheckpointOf(Settings(Endpoint)), _input, Settings(Endpoint)));
    }

    [Fact]
    public async Task An_input_whose_name_looks_like_a_secret_still_matches_the_checkpoint_that_recorded_it_redacted()
    {
        var input = new InputIdentity("/exports/api-token=2026/flights.csv", 1_000, "sha256 abc");
        var store = new CheckpointStore(new LocalOutputFile(_directory.File("checkpoint.json"), Redaction.Rule));
        await store.WriteAsync(CheckpointOf(Settings(Endpoint)) with { Input = input }, TestContext.Current.CancellationToken);

        var written = (await store.ReadAsync(TestContext.Current.CancellationToken))!;

        Assert.Equal("/exports/api-token=(removed)", written.Input.Name);
        Assert.Null(LoadIdentity.Mismatch(written, input, Settings(Endpoint)));
    }

    [Fact]
    public void Another_loads_checkpoint_is_refused_and_the_reason_quotes_no_secret()
    {
        var mismatch = LoadIdentity.Mismatch(CheckpointOf(Settings(Endpoint)), _input, Settings("https://other.documents.azure.com/?token=b3RoZXI="));

        Assert.Equal(
            "the settings differ: Loader:Cosmos:Endpoint was 'https://acct.documents.azure.com/?token=(removed)', is 'https://other.documents.azure.com/?token=(removed)'",
            mismatch);
    }
}
