using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Tests.Pipeline;

/// <summary>
/// A stage that fails on a defect must end the load, not leave the stages before it blocked on a full channel: the
/// load ends as unexpected (exit 10) with a report that says what broke, whichever thread the defect struck.
/// </summary>
public sealed class StageFailureTests : IDisposable
{
    /// <summary>Far longer than the dry run of the file takes; a load still running then has hung.</summary>
    private static readonly TimeSpan s_hang = TimeSpan.FromMinutes(2);

    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string, int> Places() => new()
    {
        { "loader-batch", 1 },  // the batch stage, sizing two rows of one key folded into one merge
        { "mapping", 1 },       // the read thread mapping records itself
        { "mapping", 2 },       // a mapping thread of several
    };

    [Theory]
    [MemberData(nameof(Places))]
    public async Task A_defect_in_a_stage_ends_the_load_as_unexpected_with_its_report_instead_of_hanging(string place, int mapThreads)
    {
        var flights = SkewedFlights.Write(_directory, 40_000);
        var settings = flights.KeySettings();
        settings["Loader:DryRun"] = "true";
        settings["Loader:Tables:Table"] = "unused";
        settings["Loader:Csv:MapThreads"] = mapThreads.ToString(System.Globalization.CultureInfo.InvariantCulture);
        settings["Loader:ReportPath"] = _directory.File("report.json");
        settings["Loader:WriteMode"] = "Merge"; // the batch stage inspects only the rows it folds: a key's later row into its earlier one
        Func<Thread, bool> breaksOn = place == "loader-batch" ? thread => thread.Name == "loader-batch" : thread => thread.Name != "loader-batch";

        var run = await LoaderRunner.RunAsync(settings, TestContext.Current.CancellationToken, services => services.AddSingleton<IBackendAdapter>(provider =>
                new InspectFailingAdapterDouble(BackendFactory.Create(provider.GetRequiredService<IOptions<LoaderOptions>>().Value, TimeProvider.System), breaksOn, healthyCalls: place == "loader-batch" ? 0 : 10_000)))
            .WaitAsync(s_hang, TestContext.Current.CancellationToken);

        Assert.Equal(ExitCodes.InternalError, run.ExitCode);
        var report = run.RequireReport();
        Assert.Equal(ExitCodes.InternalError, report.ExitCode);
        Assert.Contains("the adapter's inspection broke", report.Message, StringComparison.Ordinal);
        Assert.True(File.Exists(_directory.File("report.json")), "the report was not written");
    }
}
