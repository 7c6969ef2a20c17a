using Loader.Worker.Configuration;

namespace Loader.Worker.Tests.Configuration;

/// <summary>What a checkpoint or a plan records of the settings: what decides where a row goes and what it becomes.</summary>
public sealed class IdentifyingSettingsTests
{
    private static LoaderOptions Cosmos(string? keyPaths = null, string separator = ".")
    {
        var options = new LoaderOptions { Backend = BackendKind.Cosmos, PartitionKey = "{origin},{dest}", RowKey = "{id}" };
        options.Cosmos.Endpoint = "https://account.documents.azure.com:443/";
        options.Cosmos.Database = "loads";
        options.Cosmos.Container = "flights";
        options.Cosmos.PartitionKeyPaths = keyPaths;
        options.Cosmos.PathSeparator = separator;
        return options;
    }

    [Fact]
    public void A_hierarchical_key_and_a_path_separator_other_than_the_default_are_part_of_what_identifies_a_load()
    {
        var settings = IdentifyingSettings.Of(Cosmos("/origin,/dest", "/"));

        Assert.Equal("/origin,/dest", settings["Loader:Cosmos:PartitionKeyPaths"]);
        Assert.Equal("/", settings["Loader:Cosmos:PathSeparator"]);
        Assert.NotEqual(settings, IdentifyingSettings.Of(Cosmos("/origin,/carrier", "/")));
    }

    [Fact]
    public void Left_at_their_defaults_they_are_not_recorded_so_checkpoints_written_before_them_still_match()
    {
        var settings = IdentifyingSettings.Of(Cosmos());

        Assert.DoesNotContain("Loader:Cosmos:PartitionKeyPaths", settings.Keys);
        Assert.DoesNotContain("Loader:Cosmos:PathSeparator", settings.Keys);
    }
}
