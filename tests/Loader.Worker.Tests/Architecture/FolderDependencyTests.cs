using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Architecture;

/// <summary>
/// Data and calls go one way between the folders of the loader: Hosting -> Shards, Estimate, Checks, Verify -> Pipeline ->
/// Outcomes and the stages -> Configuration -> the adapters and leaf capabilities. A folder that uses one above it ties
/// the two together: neither can be read, changed or tested alone. The graph these tests print is the one the closing
/// note of #16 shows.
/// </summary>
public sealed class FolderDependencyTests(ITestOutputHelper output)
{
    /// <summary>What an adapter folder may use: Loader.Abstractions (another project, not a folder here) and Storage.</summary>
    private static readonly string[] s_adapterMayUse = ["Backends", "Storage"];

    /// <summary>
    /// The direction docs/architecture.md draws, top to bottom: a folder uses only folders of the layers below its own. The
    /// stages (Dispatch down to Inputs and Outputs) each use only stages after them.
    /// </summary>
    private static readonly string[][] s_layers =
    [
        [FolderGraph.Root],
        ["Hosting"],
        ["Shards", "Estimate", "Checks", "Verify"],
        ["Pipeline"],
        ["Outcomes", "Dispatch"],
        ["Checkpoints", "Rejects", "Telemetry"],
        ["Reporting"],
        ["Outputs"],
        ["Configuration"],
        ["Mapping"],
        ["Csv", "JsonLines", "Parquet", "Batching"],
        ["Records"],
        ["Inputs"],
        ["Backends"],
        ["Storage"],
        ["Security"],
    ];

    private static readonly Lazy<FolderGraph> s_loader = new(() => FolderGraph.Read(Path.Combine(RepositoryPaths.Root, "src", "Loader.Worker")));

    [Fact]
    public void The_folders_of_the_loader_use_each_other_without_a_cycle()
    {
        var graph = s_loader.Value;
        output.WriteLine(graph.Describe());

        Assert.Contains("Hosting", graph.Folders);
        Assert.NotEmpty(graph.UsedBy("Hosting"));
        var cycles = graph.Cycles();
        Assert.True(cycles.Count == 0, $"The folders of src/Loader.Worker use each other in {cycles.Count} cycles (the test's output lists the uses on them):{Environment.NewLine}"
            + string.Join(Environment.NewLine, cycles.Select(FolderGraph.Format)));
    }

    [Fact]
    public void The_adapters_use_only_the_abstractions_and_storage()
    {
        var graph = s_loader.Value;
        var stray = graph.Uses.Where(use => use.From == "Backends" && !s_adapterMayUse.Contains(use.To)).ToList();

        Assert.True(stray.Count == 0, $"Backends/ may use Loader.Abstractions and Storage only; it uses:{Environment.NewLine}"
            + string.Join(Environment.NewLine, stray.Select(use => $"  {use.To}: {use}")));
    }

    [Fact]
    public void Each_folder_uses_only_folders_of_the_layers_below_it()
    {
        var graph = s_loader.Value;
        var (unplaced, upward) = AgainstLayers(graph, s_layers);

        Assert.True(unplaced.Count == 0, $"Folders the layers of this test do not place (put each where it belongs, here and in docs/architecture.md): {string.Join(", ", unplaced)}");
        Assert.True(upward.Count == 0, $"Uses against the direction Hosting -> ... -> Inputs -> Backends -> Storage -> Security:{Environment.NewLine}"
            + string.Join(Environment.NewLine, upward.Select(use => $"  {use.From} -> {use.To}: {use}")));
    }

    /// <summary>The folders no layer holds, and the uses of a folder in the same layer or one above.</summary>
    private static (IReadOnlyList<string> Unplaced, IReadOnlyList<FolderUse> Upward) AgainstLayers(FolderGraph graph, string[][] layers)
    {
        var layerOf = layers.SelectMany((folders, layer) => folders.Select(folder => (folder, layer))).ToDictionary(StringComparer.Ordinal);
        var unplaced = graph.Folders.Where(folder => !layerOf.ContainsKey(folder)).ToList();
        var upward = graph.Uses.Where(use => layerOf.TryGetValue(use.From, out var from) && layerOf.TryGetValue(use.To, out var to) && to <= from).ToList();
        return (unplaced, upward);
    }

    [Fact]
    public void A_use_of_a_folder_above_or_beside_and_a_folder_no_layer_holds_are_caught()
    {
        var graph = FolderGraph.From(
        [
            ("Hosting/LoadJob.cs", "using Loader.Worker.Csv;\nnamespace Loader.Worker.Hosting;\nsealed class LoadJob { }"),
            ("Csv/CsvOptions.cs", "namespace Loader.Worker.Csv;\nsealed class CsvOptions { Hosting.LoadJob? Job; Mapping.Plan? Plan; Extra.Thing? Thing; }"),
            ("Mapping/Plan.cs", "namespace Loader.Worker.Mapping;\nsealed class Plan { }"),
            ("Extra/Thing.cs", "namespace Loader.Worker.Extra;\nsealed class Thing { }"),
        ]);

        var (unplaced, upward) = AgainstLayers(graph, [["Hosting"], ["Mapping"], ["Csv"]]);

        Assert.Equal(["Extra"], unplaced);
        Assert.Equal(["Csv -> Hosting", "Csv -> Mapping"], upward.Select(use => $"{use.From} -> {use.To}"));
    }

    [Fact]
    public void Every_file_declares_the_namespace_of_its_folder()
    {
        var misplaced = s_loader.Value.Misplaced;

        Assert.True(misplaced.Count == 0, string.Join(Environment.NewLine, misplaced));
    }

    /// <summary>The reader itself: each kind of use it must see, and what only looks like one.</summary>
    [Fact]
    public void The_reader_sees_usings_and_qualified_names_but_not_comments_or_properties()
    {
        var graph = FolderGraph.From(
        [
            ("Inputs/InputSource.cs", "namespace Loader.Worker.Inputs;\npublic sealed class InputSource { }"),
            ("Csv/CsvOptions.cs", "namespace Loader.Worker.Csv;\npublic sealed class CsvOptions { }"),
            ("Shards/Planning/ShardPlanner.cs", "namespace Loader.Worker.Shards.Planning;\npublic sealed class ShardPlanner { }"),
            ("Planning/LoadPlanner.cs", "namespace Loader.Worker.Planning;\npublic sealed class LoadPlanner { }"),
            ("Reporting/Html/HtmlReport.cs", "namespace Loader.Worker.Reporting.Html;\npublic static class HtmlReport { public static int Size = 1; }"),
            ("Hosting/LoadJob.cs", "using Loader.Worker.Inputs;\nnamespace Loader.Worker.Hosting;\nsealed class LoadJob { }"),
            ("Pipeline/ReadStage.cs", "namespace Loader.Worker.Pipeline;\nsealed class ReadStage { int Size => Reporting.Html.HtmlReport.Size; }"),
            ("Outputs/Report.cs", "namespace Loader.Worker.Outputs;\nsealed class Report { global::Loader.Worker.Csv.CsvOptions? Options; }"),
            ("Shards/ShardRun.cs", "namespace Loader.Worker.Shards;\nsealed class ShardRun { Planning.ShardPlanner? Planner; }"),
            ("Checkpoints/Checkpoint.cs", "namespace Loader.Worker.Checkpoints;\n/// <see cref=\"Inputs.InputSource\"/>\n// Hosting.LoadJob\nsealed class Checkpoint { object Csv = 1; string Text => Csv.ToString()!; }"),
            ("Configuration/LoaderOptions.cs", "namespace Loader.Worker.Configuration;\nsealed class LoaderOptions { string Name => nameof(Planning.LoadPlanner); }"),
        ]);

        Assert.Equal(["Inputs"], graph.UsedBy("Hosting"));
        Assert.Equal(["Reporting"], graph.UsedBy("Pipeline"));
        Assert.Equal(["Csv"], graph.UsedBy("Outputs"));
        Assert.Empty(graph.UsedBy("Shards")); // Planning.ShardPlanner is Shards.Planning, seen from Shards
        Assert.Empty(graph.UsedBy("Checkpoints")); // a cref, a comment and a property called Csv
        Assert.Equal(["Planning"], graph.UsedBy("Configuration"));
        Assert.Empty(graph.Misplaced);
        Assert.Empty(graph.Cycles());
    }

    [Fact]
    public void Each_cycle_is_named_as_the_path_around_it_and_a_misplaced_file_is_caught()
    {
        var graph = FolderGraph.From(
        [
            ("Inputs/InputOpener.cs", "using Loader.Worker.Checkpoints;\nnamespace Loader.Worker.Inputs;\nsealed class InputOpener { }"),
            ("Checkpoints/LoadIdentity.cs", "using Loader.Worker.Reporting;\nnamespace Loader.Worker.Checkpoints;\nsealed class LoadIdentity { }"),
            ("Reporting/LoadStatistics.cs", "namespace Loader.Worker.Reporting;\nsealed class LoadStatistics { Inputs.InputOpener? Opener; }"),
            ("Hosting/LoadJob.cs", "using Loader.Worker.Backends;\nnamespace Loader.Worker.Hosting;\nsealed class LoadJob { }"),
            ("Backends/BackendFactory.cs", "using Loader.Worker.Hosting;\nnamespace Loader.Worker.Backends;\nsealed class BackendFactory { }"),
            ("Storage/Blobs/BlobPart.cs", "namespace Loader.Worker.Inputs;\nsealed class BlobPart { }"),
        ]);

        Assert.Equal(["Backends -> Hosting -> Backends", "Checkpoints -> Reporting -> Inputs -> Checkpoints"], graph.Cycles().Select(FolderGraph.Format));
        Assert.Equal(["Storage/Blobs/BlobPart.cs: namespace Loader.Worker.Inputs, its folder says Loader.Worker.Storage.Blobs"], graph.Misplaced);
    }
}
