using System.Text.Json;
using Azure;
using Azure.Storage.Queues;
using Loader.Worker.Reporting;
using Loader.Worker.Storage.Queues;

namespace Loader.Worker.Shards;

/// <summary>
/// The queue of shards and its poison queue. A message names a load and a shard; it is only a reminder that the shard
/// wants work: the shard's state in the state folder says where it stands. Messages never expire.
/// </summary>
internal sealed class ShardQueue(QueueAddress address, QueueClientFactory queues)
{
    private static readonly TimeSpan s_never = TimeSpan.FromSeconds(-1);

    private readonly QueueClient _queue = queues.For(address);
    private readonly QueueClient _poison = queues.For(address.Poison);

    public string Display => address.Display;

    public string PoisonDisplay => address.Poison.Display;

    /// <summary>Creates the queue and its poison queue where missing (Bicep creates them in Azure).</summary>
    public async Task EnsureExistsAsync(CancellationToken cancellationToken)
    {
        await _queue.CreateIfNotExistsAsync(cancellationToken: cancellationToken).ConfigureAwait(false);
        await _poison.CreateIfNotExistsAsync(cancellationToken: cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Puts a shard's message in the queue, visible after <paramref name="delay"/>; returns the message's id.</summary>
    public async Task<string> SendAsync(ShardMessage message, TimeSpan delay, CancellationToken cancellationToken)
    {
        var receipt = await _queue.SendMessageAsync(message.ToText(), delay, s_never, cancellationToken).ConfigureAwait(false);
        return receipt.Value.MessageId;
    }

    /// <summary>Takes the next visible message, hidden from others for <paramref name="visibility"/>; null when none is visible.</summary>
    public async Task<ReceivedShard?> ReceiveAsync(TimeSpan visibility, CancellationToken cancellationToken)
    {
        var messages = (await _queue.ReceiveMessagesAsync(1, visibility, cancellationToken).ConfigureAwait(false)).Value;
        return messages is [var message, ..] ? new ReceivedShard(message.MessageId, message.PopReceipt, message.DequeueCount, message.MessageText) : null;
    }

    /// <summary>Keeps a taken message hidden for <paramref name="visibility"/> more.</summary>
    /// <exception cref="RequestFailedException">404 or 400: the message is no longer this worker's (it became visible and another took it, or it was deleted).</exception>
    public async Task ExtendAsync(ReceivedShard message, TimeSpan visibility, CancellationToken cancellationToken)
    {
        var update = await _queue.UpdateMessageAsync(message.MessageId, message.PopReceipt, visibilityTimeout: visibility, cancellationToken: cancellationToken).ConfigureAwait(false);
        message.PopReceipt = update.Value.PopReceipt;
    }

    /// <summary>Deletes a message; one already gone (taken over and deleted by another worker) is no error.</summary>
    public async Task DeleteAsync(ReceivedShard message, CancellationToken cancellationToken)
    {
        try
        {
            await _queue.DeleteMessageAsync(message.MessageId, message.PopReceipt, cancellationToken).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status is 404 or 400)
        {
            // Gone, or taken over meanwhile: whoever holds it now finds the shard's state and acts on that.
        }
    }

    /// <summary>Moves a message to the poison queue: a copy there, then the message deleted here.</summary>
    public async Task PoisonAsync(ReceivedShard message, CancellationToken cancellationToken)
    {
        await _poison.SendMessageAsync(message.Text, TimeSpan.Zero, s_never, cancellationToken).ConfigureAwait(false);
        await DeleteAsync(message, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Messages in the queue, visible or not (the service's approximate count).</summary>
    public async Task<int> CountAsync(CancellationToken cancellationToken) =>
        (await _queue.GetPropertiesAsync(cancellationToken).ConfigureAwait(false)).Value.ApproximateMessagesCount;

    /// <summary>Messages in the poison queue; 0 when it does not exist.</summary>
    public async Task<int> PoisonCountAsync(CancellationToken cancellationToken)
    {
        try
        {
            return (await _poison.GetPropertiesAsync(cancellationToken).ConfigureAwait(false)).Value.ApproximateMessagesCount;
        }
        catch (RequestFailedException exception) when (exception.Status == 404)
        {
            return 0;
        }
    }
}

/// <summary>What a shard's message says: which load, which shard.</summary>
internal sealed record ShardMessage(string LoadId, string Shard)
{
    public string ToText() => JsonSerializer.Serialize(this, ReportWriter.JsonOptions);

    /// <summary>The message in a text; null when the text is not one (a message some other program put in the queue).</summary>
    public static ShardMessage? Parse(string text)
    {
        try
        {
            return JsonSerializer.Deserialize<ShardMessage>(text, ReportWriter.JsonOptions) is { LoadId.Length: > 0, Shard.Length: > 0 } message ? message : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}

/// <summary>A message a worker took: its id and current pop receipt (renewed with each extension), how often it was taken, its text.</summary>
internal sealed class ReceivedShard(string messageId, string popReceipt, long dequeueCount, string text)
{
    public string MessageId { get; } = messageId;

    public string PopReceipt { get; set; } = popReceipt;

    public long DequeueCount { get; } = dequeueCount;

    public string Text { get; } = text;

    public ShardMessage? Message { get; } = ShardMessage.Parse(text);
}
