using Loader.Worker.Configuration;
using Loader.Worker.Outputs;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Outputs;

/// <summary>
/// Outputs kept off the input and off each other, on real folders, files and symbolic links of this machine's file system,
/// and on blob URLs (which are compared as text: nothing is fetched).
/// </summary>
public sealed class OutputLocationCheckTests : IDisposable
{
    private const string Account = "http://127.0.0.1:10000/devstoreaccount1";

    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Input() => _directory.WriteCsv("input.csv", "pk,rk\np,1\n");

    private static string Lines(IEnumerable<PreflightCheck> checks) => string.Join(Environment.NewLine, checks.Select(check => check.Refusal));

    [Fact]
    public void Separate_outputs_beside_the_input_pass()
    {
        var settings = new LoaderOptions
        {
            Input = Input(),
            ReportPath = _directory.File("report.json"),
            RejectsPath = _directory.File("rejects.csv"),
            CheckpointPath = _directory.File("checkpoint.json"),
        };

        Assert.Empty(OutputLocationCheck.OfLoad(settings));
    }

    [Theory]
    [InlineData("ReportPath", "Loader:ReportPath")]
    [InlineData("RejectsPath", "Loader:RejectsPath")]
    [InlineData("HtmlReportPath", "Loader:HtmlReportPath")]
    [InlineData("CheckpointPath", "Loader:CheckpointPath")]
    public void An_output_at_the_input_is_refused_naming_both_settings(string property, string key)
    {
        var input = Input();
        var settings = new LoaderOptions { Input = input };
        typeof(LoaderOptions).GetProperty(property)!.SetValue(settings, input);

        var conflict = Assert.Single(OutputLocationCheck.OfLoad(settings));

        Assert.Equal(PreflightFailure.InvalidSetting, conflict.Failure);
        Assert.Equal($"{key}: cannot write '{input}': it is the input, Loader:Input '{input}': writing there would destroy it", conflict.Refusal);
    }

    [Fact]
    public void Two_outputs_at_one_place_are_refused_on_the_later_naming_the_earlier()
    {
        var report = _directory.File("out.json");
        var settings = new LoaderOptions { Input = Input(), ReportPath = report, RejectsPath = report };

        Assert.Equal(
            $"Loader:RejectsPath: cannot write '{report}': it is also Loader:ReportPath '{report}': one would replace the other",
            Lines(OutputLocationCheck.OfLoad(settings)));
    }

    [Fact]
    public void The_html_report_beside_the_json_report_by_default_counts_and_says_where_it_comes_from()
    {
        var input = _directory.WriteCsv("data.html", "pk,rk\np,1\n");
        var settings = new LoaderOptions { Input = input, ReportPath = _directory.File("data.json") };

        Assert.Equal(
            $"Loader:HtmlReportPath: cannot write '{input}': it (where the HTML report goes unless Loader:HtmlReportPath says otherwise: beside Loader:ReportPath) is the input, Loader:Input '{input}': writing there would destroy it",
            Lines(OutputLocationCheck.OfLoad(settings)));
    }

    [Fact]
    public void A_dry_run_keeps_no_checkpoint_so_its_place_is_not_compared()
    {
        var input = Input();

        Assert.Empty(OutputLocationCheck.OfLoad(new LoaderOptions { Input = input, CheckpointPath = input, DryRun = true }));
    }

    [Fact]
    public void The_temporary_copy_a_report_is_written_to_first_counts_too()
    {
        var input = _directory.WriteCsv("report.json.tmp", "pk,rk\np,1\n");
        var report = _directory.File("report.json");

        Assert.Equal(
            $"Loader:ReportPath: cannot write '{report}': its temporary copy '{input}' is the input, Loader:Input '{input}': writing there would destroy it",
            Lines(OutputLocationCheck.OfLoad(new LoaderOptions { Input = input, ReportPath = report, HtmlReportPath = _directory.File("report.html") })));
    }

    [Fact]
    public void A_relative_path_and_a_folder_reached_through_a_symbolic_link_are_resolved_before_comparing()
    {
        var input = Input();
        var linked = _directory.File("linked");
        Directory.CreateSymbolicLink(linked, _directory.Path);
        var throughLink = Path.Combine(linked, "sub", "..", "input.csv"); // '..' from where the link leads, as the OS walks it
        Directory.CreateDirectory(Path.Combine(_directory.Path, "sub"));
        var relative = Path.GetRelativePath(Directory.GetCurrentDirectory(), input);

        var checks = OutputLocationCheck.OfLoad(new LoaderOptions { Input = input, ReportPath = throughLink, RejectsPath = relative });

        Assert.Equal(
            [
                $"Loader:ReportPath: cannot write '{throughLink}': it is the input, Loader:Input '{input}' (both resolve to '{input}'): writing there would destroy it",
                $"Loader:RejectsPath: cannot write '{relative}': it is the input, Loader:Input '{input}' (both resolve to '{input}'): writing there would destroy it",
                $"Loader:RejectsPath: cannot write '{relative}': it is also Loader:ReportPath '{throughLink}' (both resolve to '{input}'): one would replace the other",
            ],
            checks.Select(check => check.Refusal));
    }

    [Fact]
    public void An_output_that_is_a_symbolic_link_to_the_input_or_a_chain_of_them_is_the_input()
    {
        var input = Input();
        var first = _directory.File("first.csv");
        var second = _directory.File("rejects.csv");
        File.CreateSymbolicLink(first, input);
        File.CreateSymbolicLink(second, "first.csv"); // relative: from the link's own folder

        var conflict = Assert.Single(OutputLocationCheck.OfLoad(new LoaderOptions { Input = input, RejectsPath = second }));

        Assert.Contains($"it is the input, Loader:Input '{input}' (both resolve to '{input}')", conflict.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public void A_loop_of_links_does_not_hang_the_check()
    {
        var loop = _directory.File("loop.csv");
        File.CreateSymbolicLink(loop, "loop.csv");

        Assert.Empty(OutputLocationCheck.OfLoad(new LoaderOptions { Input = Input(), ReportPath = loop }));
    }

    [Fact]
    public void Paths_that_differ_in_case_are_different_files_on_linux()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "case-sensitive file names are Linux's rule");
        var input = Input();

        Assert.Empty(OutputLocationCheck.OfLoad(new LoaderOptions { Input = input, ReportPath = _directory.File("INPUT.csv") }));
    }

    [Theory]
    [InlineData("http://127.0.0.1:10000/devstoreaccount1/data/data.csv", "http://LOCALHOST:10000/devstoreaccount1/data/data.csv")]
    [InlineData("http://127.0.0.1:10000/devstoreaccount1/data/data%20one.csv", "http://127.0.0.1:10000/devstoreaccount1/data/data one.csv")]
    [InlineData("https://acme.blob.core.windows.net/data/data.csv", "https://ACME.Blob.Core.Windows.Net:443/data/data.csv?sv=1&sig=abc")]
    [InlineData("https://acme.blob.core.windows.net/data/data.csv", "http://acme.blob.core.windows.net/data/data.csv")]
    public void A_blob_output_spelled_another_way_is_still_the_input(string input, string rejects)
    {
        var conflict = Assert.Single(OutputLocationCheck.OfLoad(new LoaderOptions { Input = input, RejectsPath = rejects }));

        Assert.StartsWith("it is the input, Loader:Input '", conflict.Detail, StringComparison.Ordinal);
        Assert.DoesNotContain("sig=", conflict.Refusal, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData($"{Account}/data/flights/", $"{Account}/data/flights/report.json")]
    [InlineData($"{Account}/data/flights*", $"{Account}/data/flights-report.json")]
    [InlineData($"{Account}/data/", $"{Account}/data/runs/2024/report.json")]
    public void An_output_inside_the_input_prefix_is_refused_as_a_later_run_would_read_it(string input, string report)
    {
        var checks = OutputLocationCheck.OfLoad(new LoaderOptions { Input = input, ReportPath = report });

        Assert.Equal(
            [
                $"Loader:ReportPath: cannot write '{report}': it is inside the input, Loader:Input '{input}', which a later run or shard would read it from as data",
                $"Loader:HtmlReportPath: cannot write '{report[..^5]}.html': it (where the HTML report goes unless Loader:HtmlReportPath says otherwise: beside Loader:ReportPath) is inside the input, Loader:Input '{input}', which a later run or shard would read it from as data",
            ],
            checks.Select(check => check.Refusal));
    }

    [Theory]
    [InlineData($"{Account}/data/flights/", $"{Account}/data/flights-report.json")] // beside the prefix, not under it
    [InlineData($"{Account}/data/data.csv", $"{Account}/out/data.csv")] // another container
    [InlineData($"{Account}/data/data.csv", "http://127.0.0.1:10000/otheraccount/data/data.csv")] // another account
    [InlineData($"{Account}/data/data.csv", "http://127.0.0.1:10001/devstoreaccount1/data/data.csv")] // another service
    [InlineData($"{Account}/data/data.csv", $"{Account}/data/Data.csv")] // blob names are case-sensitive
    public void Blob_outputs_elsewhere_pass(string input, string report)
    {
        Assert.Empty(OutputLocationCheck.OfLoad(new LoaderOptions { Input = input, ReportPath = report, HtmlReportPath = $"{Account}/reports/r.html" }));
    }

    [Fact]
    public void A_state_folder_inside_the_input_prefix_is_refused_for_every_verb()
    {
        foreach (var verb in new[] { LoaderCommand.Plan, LoaderCommand.Work, LoaderCommand.Status })
        {
            var settings = new LoaderOptions { Command = verb, Input = $"{Account}/data/", Shards = { State = $"{Account}/data/state/" } };

            Assert.Equal(
                $"Loader:Shards:State: cannot write '{Account}/data/state/': it is inside the input, Loader:Input '{Account}/data/', which a later run or shard would read it from as data",
                Lines(OutputLocationCheck.OfShardedLoad(settings)));
        }
    }

    [Fact]
    public void An_input_inside_the_state_folder_is_refused()
    {
        var settings = new LoaderOptions { Command = LoaderCommand.Plan, Input = $"{Account}/load/state/flights.csv", Shards = { State = $"{Account}/load/state/" } };

        Assert.Equal(
            $"Loader:Shards:State: cannot write '{Account}/load/state/': the input, Loader:Input '{Account}/load/state/flights.csv', is inside it, where the loader writes files of its own",
            Lines(OutputLocationCheck.OfShardedLoad(settings)));
    }

    [Fact]
    public void Status_keeps_its_report_off_the_input_and_out_of_the_state_folder()
    {
        var input = Input();
        var inState = $"{Account}/load/state/status.json";

        Assert.Equal(
            $"Loader:ReportPath: cannot write '{input}': it is the input, Loader:Input '{input}': writing there would destroy it",
            Lines(OutputLocationCheck.OfShardedLoad(new LoaderOptions { Command = LoaderCommand.Status, Input = input, ReportPath = input, Shards = { State = $"{Account}/load/state/" } })));
        Assert.Equal(
            $"Loader:ReportPath: cannot write '{inState}': it is inside Loader:Shards:State '{Account}/load/state/', where the loader writes files of its own",
            Lines(OutputLocationCheck.OfShardedLoad(new LoaderOptions { Command = LoaderCommand.Status, Input = input, ReportPath = inState, Shards = { State = $"{Account}/load/state/" } })));

        // plan and work never write Loader:ReportPath (a shard's report goes to the state folder).
        Assert.Empty(OutputLocationCheck.OfShardedLoad(new LoaderOptions { Command = LoaderCommand.Work, Input = input, ReportPath = input, Shards = { State = $"{Account}/load/state/" } }));
    }
}
