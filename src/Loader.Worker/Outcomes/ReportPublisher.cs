using Loader.Worker.Backends;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Outcomes;

/// <summary>
/// Stores the report of a load, of one shard's run or of a verify: the HTML report, then the JSON report, each through the outputs
/// with retries. A report that cannot be stored is never a silent success (<see cref="LoadConclusion.OutputLost"/>), and
/// the outcome returned is the one the report records, so the two and the exit code always agree.
/// </summary>
internal sealed partial class ReportPublisher(OutputFiles outputs, SummaryOutput standardOutput, TimeProvider timeProvider, ILogger<ReportPublisher> logger)
{
    private const string Printed = "; it follows on standard output";

    public async Task<T> PublishAsync<T>(T result, ReportTargets to)
        where T : IRunResult<T>
    {
        // The HTML report first, so that the JSON report, written after it, says if it could not be stored. A JSON report
        // that cannot be stored outranks that: its message replaces the HTML report's.
        if (await TryWriteAsync(to.Html, result.WriteHtmlAsync).ConfigureAwait(false) is { } html)
        {
            LogHtmlReportNotWritten(html.Where, html.Reason);
            result = result.With(LoadConclusion.OutputLost(result.Outcome, $"the HTML report could not be written to {html.Where} ({html.Reason})"));
        }

        if (await TryWriteAsync(to.Json, (file, token) => file.WriteJsonAsync(result.JsonReport, ReportWriter.JsonOptions, token)).ConfigureAwait(false) is { } json)
        {
            var printed = to.PrintWhenLost ? Printed : "";
            LogReportNotWritten(json.Where, json.Reason, printed);
            result = result.With(LoadConclusion.OutputLost(result.Outcome, $"the report could not be written to {json.Where} ({json.Reason}){printed}", outranks: true));
            if (to.PrintWhenLost)
            {
                await standardOutput.WriteJsonAsync(result.JsonReport, ReportWriter.JsonOptions).ConfigureAwait(false);
            }
        }

        return result;
    }

    /// <summary>
    /// Writes one report through the output its setting names (a path or a blob URL), retrying as any output; returns
    /// where and why it could not be stored, or null when it was (or none is configured).
    /// </summary>
    private async Task<(string Where, string Reason)?> TryWriteAsync(string? setting, Func<OutputFile, CancellationToken, Task> write)
    {
        if (string.IsNullOrWhiteSpace(setting))
        {
            return null;
        }

        try
        {
            await OutputWriteRetry.Create(timeProvider).ExecuteAsync(
                async token => await write(outputs.For(setting)!, token).ConfigureAwait(false),
                CancellationToken.None).ConfigureAwait(false);
            return null;
        }
        catch (Exception exception) when (OutputWriteRetry.IsOutputFailure(exception) || exception is FormatException or InvalidOperationException)
        {
            return (OutputFiles.Display(setting)!, BackendErrors.Describe(exception));
        }
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "The report could not be written to {ReportPath}, even after retries: {Reason}{Printed}")]
    private partial void LogReportNotWritten(string reportPath, string reason, string printed);

    [LoggerMessage(Level = LogLevel.Error, Message = "The HTML report could not be written to {HtmlReportPath}, even after retries: {Reason}")]
    private partial void LogHtmlReportNotWritten(string htmlReportPath, string reason);
}
