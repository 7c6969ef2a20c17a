using Azure;
using Azure.Identity;
using Loader.Worker.Backends;
using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Verify;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Hosting;

/// <summary>
/// Runs <c>verify</c> once and stops the host with its exit code, as <see cref="LoadJob"/> does a load: the reports stored
/// by the same publisher (beside the load's report, never over it: <see cref="VerifyReportLocation"/>), the summary printed.
/// A stop request (SIGTERM) ends it with what was checked so far.
/// </summary>
internal sealed partial class VerifyJob(
    TargetVerifier verifier,
    IOptions<LoaderOptions> options,
    InputOpener inputs,
    BlobClientFactory blobs,
    Redaction redaction,
    ReportPublisher publisher,
    SummaryOutput summaryOutput,
    IHostApplicationLifetime lifetime,
    TimeProvider timeProvider,
    ILogger<VerifyJob> logger) : BackgroundService
{
    public int? ExitCode { get; private set; }

    public VerifyReport? Report { get; private set; }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var settings = options.Value;
        var code = await RunAsync(settings, stoppingToken).ConfigureAwait(false);
        ExitCode = code;
        Environment.ExitCode = code;
        LogFinished(code);
        lifetime.StopApplication();
    }

    private async Task<int> RunAsync(LoaderOptions settings, CancellationToken stoppingToken)
    {
        if (OutputLocationCheck.OfVerify(settings) is { Count: > 0 } conflicts)
        {
            return await EndAsync(LoadOutcomeKind.InvalidConfiguration, OutputLocationCheck.Describe(conflicts, "Nothing was verified: give the verify report a place of its own.")).ConfigureAwait(false);
        }

        IReadOnlyList<VerifyScope> scopes;
        int? shards;
        try
        {
            (scopes, shards) = await VerifyScopes.OfAsync(settings, inputs, blobs, redaction, stoppingToken).ConfigureAwait(false);
        }
        catch (Exception exception) when (LoadFailures.KindOf(exception) is { } failure)
        {
            return await EndAsync(failure, exception.Message).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is InvalidDataException or FormatException)
        {
            return await EndAsync(LoadOutcomeKind.InvalidConfiguration, $"verify: {exception.Message}").ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is RequestFailedException or AuthenticationFailedException or HttpRequestException)
        {
            return await EndAsync(LoadOutcomeKind.Unavailable, $"verify: the state folder could not be read: {BackendErrors.Describe(exception)}").ConfigureAwait(false);
        }

        var result = await verifier.RunAsync(scopes, shards, stoppingToken).ConfigureAwait(false);
        var json = VerifyReportLocation.Json(settings);
        result = await publisher.PublishAsync(result, new ReportTargets(json, VerifyReportLocation.Html(settings), PrintWhenLost: true)).ConfigureAwait(false);
        Report = result.Report;
        await summaryOutput.WriteAsync(VerifySummary.Format(result.Report, OutputFiles.Display(json)), timeProvider).ConfigureAwait(false);
        return result.Report.ExitCode;
    }

    /// <summary>A verify that could not start: the message printed, the exit code its outcome's.</summary>
    private async Task<int> EndAsync(LoadOutcomeKind outcome, string message)
    {
        LogRefused(message);
        await summaryOutput.WriteAsync(message, timeProvider).ConfigureAwait(false);
        return ExitCodes.Of(outcome);
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "{Message}")]
    private partial void LogRefused(string message);

    [LoggerMessage(Level = LogLevel.Information, Message = "Verify finished: exit code {ExitCode}")]
    private partial void LogFinished(int exitCode);
}
