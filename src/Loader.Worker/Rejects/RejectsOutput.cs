using Azure;
using Azure.Identity;
using Loader.Worker.Backends;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Rejects;

/// <summary>
/// The rejects file of a load, where <c>Loader:RejectsPath</c> says. One that goes to a blob is written locally and
/// published whole at each checkpoint and at the end; when resuming, the earlier run's published file is fetched first,
/// so its rejects are kept.
/// </summary>
/// <param name="rejectsPath">The <c>Loader:RejectsPath</c> setting; none keeps no file.</param>
/// <param name="maxRejects">The <c>Loader:MaxRejects</c> setting.</param>
/// <param name="outputs">Turns the setting into a file or blob.</param>
/// <param name="statistics">Where rejects are counted.</param>
/// <param name="loggerFactory">Makes the loggers of the rejects file.</param>
/// <param name="redaction">What the reasons in the file go through.</param>
/// <param name="timeProvider">Times the retries of storing the file.</param>
internal sealed partial class RejectsOutput(
    string? rejectsPath,
    long maxRejects,
    OutputFiles outputs,
    LoadStatistics statistics,
    ILoggerFactory loggerFactory,
    Redaction redaction,
    TimeProvider timeProvider)
{
    private readonly ILogger _logger = loggerFactory.CreateLogger<RejectsOutput>();

    /// <param name="keepUpToLine">When resuming: the earlier run's rejects up to this line are kept.</param>
    /// <param name="rows">How a record becomes a row of the file, in the input's format, and where its lines come from.</param>
    /// <param name="cancellationToken">Cancels fetching the earlier run's file.</param>
    /// <exception cref="OutputRefusedException">The setting cannot be right, or the earlier run's file could not be read.</exception>
    public async Task<RejectSink> OpenAsync(long? keepUpToLine, IRejectLayout rows, CancellationToken cancellationToken)
    {
        var logger = loggerFactory.CreateLogger<RejectSink>();
        switch (outputs.For("Loader:RejectsPath", rejectsPath))
        {
            case null:
                return new RejectSink(null, maxRejects, statistics, logger, redaction, rows);
            case LocalOutputFile:
                return new RejectSink(rejectsPath, maxRejects, statistics, logger, redaction, rows, keepUpToLine);
            case var blob:
                var workingCopy = Path.Combine(Path.GetTempPath(), $"loader-rejects-{Guid.NewGuid():N}.tmp");
                if (keepUpToLine is not null && await ReadAsync(blob, cancellationToken).ConfigureAwait(false) is { } earlier)
                {
                    await File.WriteAllBytesAsync(workingCopy, earlier.ToMemory(), cancellationToken).ConfigureAwait(false);
                }

                return new RejectSink(workingCopy, maxRejects, statistics, logger, redaction, rows, keepUpToLine, publishTo: blob);
        }
    }

    /// <summary>Stores the rejects at the end of a load that keeps no checkpoint (which would store them itself); false when it could not.</summary>
    public async Task<bool> PublishAsync(RejectSink rejects)
    {
        try
        {
            await OutputWriteRetry.Create(timeProvider).ExecuteAsync(static async (sink, token) => await sink.FlushAsync(token).ConfigureAwait(false), rejects, CancellationToken.None)
                .ConfigureAwait(false);
            return true;
        }
        catch (Exception exception) when (OutputWriteRetry.IsOutputFailure(exception))
        {
            LogRejectsNotPublished(BackendErrors.Describe(exception));
            return false;
        }
    }

    private static async Task<BinaryData?> ReadAsync(OutputFile file, CancellationToken cancellationToken)
    {
        try
        {
            return await file.ReadAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is RequestFailedException or AuthenticationFailedException or IOException)
        {
            throw new OutputRefusedException(PreflightFailure.Refused, $"cannot read '{file.Display}': {BackendErrors.Describe(exception)}", exception);
        }
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "The rejects could not be published: {Reason}")]
    private partial void LogRejectsNotPublished(string reason);
}
