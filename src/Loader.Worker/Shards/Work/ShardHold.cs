using Azure;
using Azure.Storage.Blobs.Specialized;
using Loader.Worker.Backends;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Shards.Work;

/// <summary>
/// A worker's hold on a shard while it works it: the lease on the shard's state (only the holder may change the state,
/// so two workers never load one shard at once) and the queue message's invisibility, both renewed every third of the
/// lease. The lease runs out a little before the message shows again, so after a worker dies the next worker to take
/// the message finds the lease free. When the lease cannot be renewed before it runs out, the hold is
/// <see cref="Lost"/> and the shard's run must stop at once: another worker may take the shard.
/// </summary>
internal sealed partial class ShardHold : IAsyncDisposable
{
    private readonly BlobLeaseClient _lease;
    private readonly ShardQueue _queue;
    private readonly ReceivedShard _message;
    private readonly TimeSpan _visibility;
    private readonly TimeProvider _timeProvider;
    private readonly ILogger _logger;
    private readonly CancellationTokenSource _lost = new();
    private readonly CancellationTokenSource _stop = new();
    private Task _renewing = Task.CompletedTask;
    private long _renewedAt;
    private bool _messageLost;

    private ShardHold(BlobLeaseClient lease, ShardQueue queue, ReceivedShard message, TimeSpan visibility, TimeProvider timeProvider, ILogger logger)
    {
        _lease = lease;
        _queue = queue;
        _message = message;
        _visibility = visibility;
        _timeProvider = timeProvider;
        _logger = logger;
    }

    /// <summary>How long a lease lasts unrenewed: a little less than the message stays hidden, within the service's 15-60 s.</summary>
    public static TimeSpan LeaseDuration(TimeSpan visibility) =>
        TimeSpan.FromSeconds(Math.Clamp(visibility.TotalSeconds - 5, 15, 60));

    public string LeaseId => _lease.LeaseId;

    /// <summary>Fires when the lease ran out unrenewed or was taken: stop the shard now.</summary>
    public CancellationToken Lost => _lost.Token;

    /// <summary>Takes the lease; null when another worker holds it.</summary>
    /// <exception cref="RequestFailedException">404: the shard has no state yet.</exception>
    public static async Task<ShardHold?> TryTakeAsync(BlobLeaseClient lease, ShardQueue queue, ReceivedShard message, TimeSpan visibility, TimeProvider timeProvider, ILogger logger, CancellationToken cancellationToken)
    {
        try
        {
            await lease.AcquireAsync(LeaseDuration(visibility), cancellationToken: cancellationToken).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status == 409)
        {
            return null;
        }

        var hold = new ShardHold(lease, queue, message, visibility, timeProvider, logger);
        hold._renewedAt = timeProvider.GetTimestamp();
        hold._renewing = hold.RenewAsync();
        return hold;
    }

    private async Task RenewAsync()
    {
        var duration = LeaseDuration(_visibility);
        using var timer = new PeriodicTimer(duration / 3, _timeProvider);
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token).ConfigureAwait(false))
            {
                if (!await RenewLeaseAsync(duration).ConfigureAwait(false))
                {
                    await _lost.CancelAsync().ConfigureAwait(false);
                    return;
                }

                await ExtendMessageAsync().ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
            // Released.
        }
    }

    /// <summary>Renews the lease; false once it is gone: taken (409, 412) or run out while the service could not be reached.</summary>
    private async Task<bool> RenewLeaseAsync(TimeSpan duration)
    {
        try
        {
            await _lease.RenewAsync(cancellationToken: _stop.Token).ConfigureAwait(false);
            Interlocked.Exchange(ref _renewedAt, _timeProvider.GetTimestamp());
            return true;
        }
        catch (RequestFailedException exception) when (exception.Status is 409 or 412)
        {
            LogLeaseLost(exception.ErrorCode ?? exception.Status.ToString(System.Globalization.CultureInfo.InvariantCulture));
            return false;
        }
        catch (Exception exception) when (exception is RequestFailedException or AggregateException or HttpRequestException)
        {
            // Unanswered: the lease holds until it runs out; the next tick tries again.
            var left = duration - _timeProvider.GetElapsedTime(Interlocked.Read(ref _renewedAt));
            LogRenewFailed(BackendErrors.Describe(exception), left.TotalSeconds);
            if (left > TimeSpan.Zero)
            {
                return true;
            }

            LogLeaseLost("it ran out unrenewed");
            return false;
        }
    }

    private async Task ExtendMessageAsync()
    {
        if (_messageLost)
        {
            return;
        }

        try
        {
            await _queue.ExtendAsync(_message, _visibility, _stop.Token).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status is 404 or 400)
        {
            // The message showed again and another worker took it (it finds the lease held and hides it again), or it
            // was deleted as a duplicate. The lease still makes this worker the shard's: it carries on.
            _messageLost = true;
            LogMessageLost(_message.MessageId);
        }
        catch (Exception exception) when (exception is RequestFailedException or AggregateException or HttpRequestException)
        {
            LogExtendFailed(BackendErrors.Describe(exception));
        }
    }

    /// <summary>Stops renewing; the lease is released by <see cref="ReleaseAsync"/> or runs out.</summary>
    public async Task StopRenewingAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await _renewing.ConfigureAwait(false);
    }

    /// <summary>Gives the lease back, so the shard can be taken at once; one already lost is no error.</summary>
    public async Task ReleaseAsync()
    {
        await StopRenewingAsync().ConfigureAwait(false);
        try
        {
            await _lease.ReleaseAsync().ConfigureAwait(false);
        }
        catch (RequestFailedException)
        {
            // Lost or run out: it is free either way.
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopRenewingAsync().ConfigureAwait(false);
        _lost.Dispose();
        _stop.Dispose();
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "The lease on the shard was lost ({Reason}): its run stops now, another worker may take it")]
    private partial void LogLeaseLost(string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The lease on the shard could not be renewed ({Reason}); it runs out in {Seconds:0} s")]
    private partial void LogRenewFailed(string reason, double seconds);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The shard's message {MessageId} is no longer this worker's; the lease keeps the shard this worker's")]
    private partial void LogMessageLost(string messageId);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The shard's message could not be kept hidden ({Reason}); trying again")]
    private partial void LogExtendFailed(string reason);
}
