using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.Worker.Reporting;
using Loader.Worker.Shards;
using Loader.Worker.Tests.Reporting.Html;

namespace Loader.Worker.Tests.Reporting;

/// <summary>
/// The report's <c>outcome</c> is typed, but written and read as the words it always was: scripts parse them, and
/// <c>status</c> reads the reports and states of shards an earlier version wrote.
/// </summary>
public sealed class ReportOutcomeTests
{
    public static TheoryData<string> Words => ["Completed", "CompletedWithFailures", "RejectLimitExceeded", "Stopped", "CheckpointLost", "OutputFailed", "Failed"];

    [Theory]
    [MemberData(nameof(Words))]
    public void A_report_writes_its_outcome_as_the_word_and_reads_back_a_report_with_the_word(string word)
    {
        var report = HtmlReportTests.Report() with { Outcome = Enum.Parse<ReportOutcome>(word) };

        var json = JsonSerializer.SerializeToNode(report, ReportWriter.JsonOptions)!;
        Assert.Equal(word, json["outcome"]!.GetValue<string>());

        json["outcome"] = word;
        var read = json.Deserialize<LoadReport>(ReportWriter.JsonOptions)!;
        Assert.Equal(word, read.Outcome.ToString());
    }

    [Theory]
    [MemberData(nameof(Words))]
    public void A_shard_state_an_earlier_version_wrote_reads_with_its_outcome(string word)
    {
        var written = new JsonObject
        {
            ["loadId"] = "l1",
            ["shard"] = "s0001",
            ["status"] = "Failed",
            ["updatedAt"] = "2026-11-23T10:00:00+00:00",
            ["outcome"] = word,
            ["exitCode"] = 3,
        };

        var state = written.Deserialize<ShardState>(ReportWriter.JsonOptions)!;

        Assert.Equal(word, state.Outcome.ToString());
        Assert.Equal(word, JsonSerializer.SerializeToNode(state, ReportWriter.JsonOptions)!["outcome"]!.GetValue<string>());
    }

    [Fact]
    public void A_word_no_version_wrote_is_refused()
    {
        var written = JsonSerializer.SerializeToNode(HtmlReportTests.Report(), ReportWriter.JsonOptions)!;
        written["outcome"] = "Finished";

        Assert.Throws<JsonException>(() => written.Deserialize<LoadReport>(ReportWriter.JsonOptions));
    }
}
