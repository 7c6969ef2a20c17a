using System.Globalization;
using Loader.Abstractions;
using Microsoft.Extensions.Options;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Storage.Queues;

namespace Loader.Worker.Configuration;

/// <summary>Checks <c>Loader:Shards</c> for <paramref name="command"/>, a verb of a sharded load; every message names the setting and the verb.</summary>
/// <param name="section">The section's key, e.g. <c>Loader:Shards</c>: each message names its setting in full under it.</param>
/// <param name="command">The verb the settings are for: what it requires is named with it.</param>
internal sealed class ShardOptionsValidator(string section, LoaderCommand command) : IValidateOptions<ShardOptions>
{
    public ValidateOptionsResult Validate(string? name, ShardOptions shards)
    {
        var failures = new SettingFailures();
        var verb = command.ToString().ToLowerInvariant();
        if (string.IsNullOrWhiteSpace(shards.State))
        {
            failures.Add($"{section}:State is required by {verb}: the blob folder of the load's manifest and shard state, e.g. https://<account>.blob.core.windows.net/loader-state/flights-2026-11/.");
        }
        else if (!BlobAddress.TryParse(shards.State, out var state, out var error))
        {
            failures.Add($"{section}:State: {error}");
        }
        else if (!state.Path.EndsWith('/'))
        {
            failures.Add($"{section}:State '{state.Display}' must name a folder: end it with /.");
        }

        if (string.IsNullOrWhiteSpace(shards.Queue))
        {
            failures.Add($"{section}:Queue is required by {verb}: the queue of shards, e.g. https://<account>.queue.core.windows.net/loader-shards.");
        }
        else if (!QueueAddress.TryParse(shards.Queue, out _, out var error))
        {
            failures.Add($"{section}:Queue: {error}");
        }

        failures.Defined($"{section}:By", shards.By);
        failures.Range($"{section}:Count", shards.Count, 1, 1000);
        Check(failures, shards.TargetBytes >= ShardOptions.MinTargetBytes, $"{section}:TargetBytes must be at least {ShardOptions.MinTargetBytes}, was {shards.TargetBytes}.");
        Check(failures, shards.VisibilityTimeout >= TimeSpan.FromSeconds(20) && shards.VisibilityTimeout <= TimeSpan.FromDays(7),
            $"{section}:VisibilityTimeout must be between 00:00:20 and 7.00:00:00 (a shard's lease lasts 5 s less, 15-60 s), was {shards.VisibilityTimeout}.");
        failures.Range($"{section}:MaxDequeues", shards.MaxDequeues, 1, 100);
        Check(failures, shards.RetryDelay >= TimeSpan.Zero && shards.RetryDelay <= TimeSpan.FromDays(7), $"{section}:RetryDelay must be between 0 and 7 days, was {shards.RetryDelay}.");
        failures.Positive($"{section}:PollInterval", shards.PollInterval);

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }

    private static void Check(SettingFailures failures, bool condition, FormattableString message)
    {
        if (!condition)
        {
            failures.Add(message.ToString(CultureInfo.InvariantCulture));
        }
    }
}
