using Loader.Abstractions;
using Microsoft.Extensions.Options;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Storage.Queues;

namespace Loader.Worker.Configuration;

/// <summary>Checks <c>Loader:Shards</c> for <paramref name="command"/>, a verb of a sharded load (or <c>verify</c> of one); every message names the setting and the verb.</summary>
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
            // Verify reads the manifest and the shards' rejects from the state folder; it takes nothing from the queue.
            if (command != LoaderCommand.Verify)
            {
                failures.Add($"{section}:Queue is required by {verb}: the queue of shards, e.g. https://<account>.queue.core.windows.net/loader-shards.");
            }
        }
        else if (!QueueAddress.TryParse(shards.Queue, out _, out var error))
        {
            failures.Add($"{section}:Queue: {error}");
        }

        failures.Bounds(section, shards);
        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
