using Azure;
using Azure.Identity;
using Loader.Worker.Backends;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Shards;
using Loader.Worker.Shards.Plan;
using Loader.Worker.Shards.Status;
using Loader.Worker.Shards.Work;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Hosting;

/// <summary>
/// Runs one verb of a sharded load (<c>plan</c>, <c>work</c>, <c>status</c>) and stops the host with its exit code, as
/// <see cref="LoadJob"/> does for a load. A stop request (SIGTERM) reaches <c>work</c>, which gives its shard back.
/// </summary>
internal sealed partial class ShardJob(
    IServiceProvider services,
    IOptions<LoaderOptions> options,
    IHostApplicationLifetime lifetime,
    TimeProvider timeProvider,
    SummaryOutput summaryOutput,
    ILogger<ShardJob> logger) : BackgroundService
{
    public int? ExitCode { get; private set; }

    /// <summary>What <c>status</c> found, when it ran.</summary>
    public LoadStatus? Status { get; private set; }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var command = options.Value.Command;
        CommandResult result;
        try
        {
            result = command switch
            {
                LoaderCommand.Plan => await services.GetRequiredService<PlanCommand>().RunAsync(stoppingToken).ConfigureAwait(false),
                LoaderCommand.Work => await services.GetRequiredService<ShardWorker>().RunAsync(stoppingToken).ConfigureAwait(false),
                _ => await StatusAsync(stoppingToken).ConfigureAwait(false),
            };
        }
        catch (Exception exception) when (LoadFailures.KindOf(exception) is { } failure)
        {
            result = new CommandResult(failure, exception.Message);
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            result = new CommandResult(LoadOutcomeKind.Stopped, $"{command} stopped on request.");
        }
        catch (Exception exception) when (exception is RequestFailedException or AuthenticationFailedException or AggregateException or HttpRequestException)
        {
            result = new CommandResult(LoadOutcomeKind.Unavailable, $"{command}: the shard queue or state folder could not be reached: {BackendErrors.Describe(exception)}");
        }
        catch (Exception exception) when (exception is FormatException or InvalidOperationException or InvalidDataException)
        {
            result = new CommandResult(LoadOutcomeKind.InvalidConfiguration, $"{command}: {exception.Message}");
        }
        catch (Exception exception)
        {
            LogUnexpected(command, exception);
            result = new CommandResult(LoadOutcomeKind.UnexpectedError, $"{command} failed unexpectedly: {exception.GetBaseException().Message}");
        }

        ExitCode = ExitCodes.Of(result.Outcome);
        Environment.ExitCode = ExitCode.Value;
        LogFinished(command, ExitCode.Value);
        await summaryOutput.WriteAsync(result.Summary, timeProvider).ConfigureAwait(false);
        lifetime.StopApplication();
    }

    private async Task<CommandResult> StatusAsync(CancellationToken cancellationToken)
    {
        var (result, status) = await services.GetRequiredService<StatusCommand>().RunAsync(cancellationToken).ConfigureAwait(false);
        Status = status;
        return result;
    }

    [LoggerMessage(Level = LogLevel.Critical, Message = "{Command} failed unexpectedly")]
    private partial void LogUnexpected(LoaderCommand command, Exception exception);

    [LoggerMessage(Level = LogLevel.Information, Message = "{Command} finished: exit code {ExitCode}")]
    private partial void LogFinished(LoaderCommand command, int exitCode);
}
