using System.Text.Json;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Reporting.Html;
using Microsoft.Extensions.Logging.Abstractions;

namespace Loader.Worker.Tests.Outcomes;

/// <summary>
/// The one place a run's reports are stored, for a load and for a shard: a report that cannot be stored is never a
/// success, and the outcome, the exit code and the message the report records always agree. Real files; /proc refuses
/// new files to every user, root included.
/// </summary>
public sealed class ReportPublisherTests : IDisposable
{
    private const string Refused = "/proc/loader-test/report.json";

    private readonly TestDirectory _directory = new();
    private readonly StringWriter _printed = new();

    public void Dispose() => _directory.Dispose();

    private ReportPublisher Publisher() => new(
        new OutputFiles(new BlobClientFactory(new BlobOptions()), Redaction.Rule),
        new SummaryOutput(_printed, Redaction.Rule),
        TimeProvider.System,
        NullLogger<ReportPublisher>.Instance);

    private static LoadResult Ended(LoadOutcome outcome) =>
        new(outcome, HtmlReportTests.Report() with { Outcome = outcome.Name, ExitCode = outcome.ExitCode, Message = outcome.Message });

    [Fact]
    public async Task A_completed_load_whose_report_cannot_be_stored_is_output_failed_and_its_report_is_printed_instead()
    {
        var published = await Publisher().PublishAsync(Ended(LoadOutcome.Completed), new ReportTargets(Refused, PrintWhenLost: true));

        Assert.Equal(LoadOutcomeKind.OutputFailed, published.Outcome.Kind);
        Assert.Equal((ReportOutcome.OutputFailed, ExitCodes.OutputFailed), (published.Report.Outcome, published.Report.ExitCode));
        Assert.StartsWith($"the report could not be written to {Refused} (", published.Report.Message, StringComparison.Ordinal);
        Assert.EndsWith("; it follows on standard output", published.Report.Message, StringComparison.Ordinal);
        var printed = JsonDocument.Parse(_printed.ToString()).RootElement;
        Assert.Equal("OutputFailed", printed.GetProperty("outcome").GetString());
        Assert.Equal(ExitCodes.OutputFailed, printed.GetProperty("exitCode").GetInt32());
    }

    [Fact]
    public async Task A_lost_HTML_report_is_said_in_the_stored_JSON_report_and_a_lost_JSON_report_outranks_it()
    {
        var json = _directory.File("report.json");
        var htmlLost = await Publisher().PublishAsync(Ended(LoadOutcome.Completed), new ReportTargets(json, Html: "/proc/loader-test/report.html"));

        Assert.Equal((ReportOutcome.OutputFailed, ExitCodes.OutputFailed), (htmlLost.Report.Outcome, htmlLost.Report.ExitCode));
        Assert.StartsWith("the HTML report could not be written to /proc/loader-test/report.html (", htmlLost.Report.Message, StringComparison.Ordinal);
        Assert.Equal(htmlLost.Report.Message, ReportWriter.Read(json).Message);

        var bothLost = await Publisher().PublishAsync(Ended(LoadOutcome.Completed), new ReportTargets(Refused, Html: "/proc/loader-test/report.html"));
        Assert.StartsWith($"the report could not be written to {Refused} (", bothLost.Report.Message, StringComparison.Ordinal);
        Assert.Empty(_printed.ToString());
    }

    [Fact]
    public async Task A_stopped_run_whose_report_cannot_be_stored_keeps_its_outcome_its_exit_code_and_its_message()
    {
        var stopped = new LoadOutcome(LoadOutcomeKind.Stopped, "stopped on request after 10 rows");

        var published = await Publisher().PublishAsync(Ended(stopped), new ReportTargets(Refused));

        Assert.Equal(stopped, published.Outcome);
        Assert.Equal((ReportOutcome.Stopped, ExitCodes.Stopped, stopped.Message), (published.Report.Outcome, published.Report.ExitCode, published.Report.Message));
    }
}
