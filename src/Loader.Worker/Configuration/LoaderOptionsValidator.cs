using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Csv;
using Loader.Worker.JsonLines;
using Loader.Worker.Mapping;
using Loader.Worker.Storage.Blobs;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>
/// Checks the root of <c>Loader</c> at start — the command, the input and output locations, the key templates, the
/// sizes and times of a load — and gathers what each section's own validator finds (each beside its options type),
/// so one listing names every problem. Every message names the setting's key and says what is wrong. Whether the
/// input exists is for opening it to say (see <see cref="Inputs.InputOpener"/>): validation reads no file system.
/// </summary>
internal sealed class LoaderOptionsValidator : IValidateOptions<LoaderOptions>
{
    private readonly CsvOptionsValidator _csv = new(KeyOf(nameof(LoaderOptions.Csv)));
    private readonly JsonOptionsValidator _json = new(KeyOf(nameof(LoaderOptions.Json)));
    private readonly RetryOptionsValidator _retry = new(KeyOf(nameof(LoaderOptions.Retry)));
    private readonly TelemetryOptionsValidator _telemetry = new(KeyOf(nameof(LoaderOptions.Telemetry)));
    private readonly BlobOptionsValidator _blob = new(KeyOf(nameof(LoaderOptions.Blob)));
    private readonly TablesOptionsValidator _tables = new(KeyOf(nameof(LoaderOptions.Tables)));
    private readonly CosmosOptionsValidator _cosmos = new(KeyOf(nameof(LoaderOptions.Cosmos)));
    private readonly EstimateOptionsValidator _estimate = new(KeyOf(nameof(LoaderOptions.Estimate)));

    /// <summary>The key of a section of <c>Loader</c>, e.g. <c>Loader:Csv</c>: its validator names each of its settings under it.</summary>
    private static string KeyOf(string section) => $"{LoaderOptions.SectionName}:{section}";

    public ValidateOptionsResult Validate(string? name, LoaderOptions options)
    {
        var failures = new SettingFailures();
        if (!Enum.IsDefined(options.Command))
        {
            // What else is required depends on the command: with none, nothing more can be judged.
            failures.Defined("Loader:Command", options.Command);
            return Result(failures);
        }

        if (options.Command == LoaderCommand.Verify && string.IsNullOrWhiteSpace(options.Shards.State))
        {
            RefuseSingleLoadSwitches(options, failures);
        }
        else if (options.Command != LoaderCommand.Load)
        {
            failures.AddSection(new ShardOptionsValidator(KeyOf(nameof(LoaderOptions.Shards)), options.Command), options.Shards);
            ValidateShardedUse(options, failures);
            if (options.Command == LoaderCommand.Status)
            {
                // Status reads the state folder and the queue; what the load writes where is the manifest's.
                return Result(failures);
            }
        }

        ValidateLocations(options, failures);
        ValidatePartitionKey(options, failures);
        ValidateTemplate("Loader:RowKey", options.RowKey, ForbiddenInRowKey(options.Backend), failures);
        ValidateColumnTypes(options, failures);
        ValidateSkippedColumns(options, failures);
        failures.Bounds(LoaderOptions.SectionName, options);
        if (options.MaxBufferedRows is { } rows && rows < options.BatchSize && rows >= 1)
        {
            failures.Add(SettingFailures.Invariant($"Loader:MaxBufferedRows must be at least Loader:BatchSize ({options.BatchSize}): a full batch waits there, was {rows}."));
        }

        failures.AddSection(_csv, options.Csv);
        failures.AddSection(_json, options.Json);
        if (!Enum.IsDefined(options.Format))
        {
            failures.Defined("Loader:Format", options.Format);
        }

        if (!Enum.IsDefined(options.Json.Nested))
        {
            failures.Defined("Loader:Json:Nested", options.Json.Nested);
        }
        failures.AddSection(_retry, options.Retry);
        failures.AddSection(_telemetry, options.Telemetry);
        failures.AddSection(_blob, options.Blob);
        failures.AddSection(_estimate, options.Estimate);
        failures.Bounds(KeyOf(nameof(LoaderOptions.Verify)), options.Verify);
        failures.Bounds(KeyOf(nameof(LoaderOptions.Parquet)), options.Parquet);

        // Only the chosen backend's settings are required: a Tables load needs no Cosmos settings and the other way round.
        // A value out of range is a mistake in any section, used or not.
        if (options.Backend == BackendKind.Tables)
        {
            failures.AddSection(_tables, options.Tables);
            failures.Bounds(KeyOf(nameof(LoaderOptions.Cosmos)), options.Cosmos);
            RefuseCosmosOnlySettings(options.Cosmos, failures);
        }
        else
        {
            failures.AddSection(_cosmos, options.Cosmos);
            failures.Bounds(KeyOf(nameof(LoaderOptions.Tables)), options.Tables);
        }

        if (options.Command == LoaderCommand.Load || (options.Command == LoaderCommand.Verify && string.IsNullOrWhiteSpace(options.Shards.State)))
        {
            failures.Bounds(KeyOf(nameof(LoaderOptions.Shards)), options.Shards);
        }

        return Result(failures);
    }

    /// <summary>
    /// Settings that change what a Cosmos DB load writes or how the service schedules it, which Table Storage has no
    /// counterpart for: on a Tables load they would be silently dropped (an entity kept forever, a load run at full
    /// priority against a live table the user meant to spare).
    /// </summary>
    private static void RefuseCosmosOnlySettings(CosmosOptions cosmos, SettingFailures failures)
    {
        var section = KeyOf(nameof(LoaderOptions.Cosmos));
        void Refuse(string name, string why) =>
            failures.Add($"{section}:{name} is for the Cosmos backend: {why}; remove it or use Loader:Backend=Cosmos.");

        if (cosmos.TimeToLive is not null)
        {
            Refuse(nameof(CosmosOptions.TimeToLive), "Table Storage has no time to live");
        }

        if (!string.IsNullOrWhiteSpace(cosmos.TimeToLiveColumn))
        {
            Refuse(nameof(CosmosOptions.TimeToLiveColumn), "Table Storage has no time to live");
        }

        if (cosmos.PriorityLevel is not null)
        {
            Refuse(nameof(CosmosOptions.PriorityLevel), "Table Storage has no priority-based execution");
        }

        if (cosmos.ThroughputBucket is not null)
        {
            Refuse(nameof(CosmosOptions.ThroughputBucket), "Table Storage has no throughput buckets");
        }
    }

    /// <summary>The root settings a verb of a sharded load does without.</summary>
    private static void ValidateShardedUse(LoaderOptions options, SettingFailures failures)
    {
        var verb = options.Command.ToString().ToLowerInvariant();

        // Each shard keeps its own checkpoint and rejects in the state folder; one path for all would mix them.
        foreach (var (key, value) in new[] { ("Loader:CheckpointPath", options.CheckpointPath), ("Loader:RejectsPath", options.RejectsPath) })
        {
            if (!string.IsNullOrWhiteSpace(value))
            {
                failures.Add($"{key} is not used by {verb}: each shard keeps its own under Loader:Shards:State (shards/<id>/); leave it empty.");
            }
        }

        RefuseSingleLoadSwitches(options, failures);
    }

    /// <summary>What only a single load does: a verb does neither.</summary>
    private static void RefuseSingleLoadSwitches(LoaderOptions options, SettingFailures failures)
    {
        var verb = options.Command.ToString().ToLowerInvariant();
        if (options.DryRun)
        {
            failures.Add($"Loader:DryRun is a single load's; {verb} cannot dry-run.");
        }

        if (options.Check)
        {
            failures.Add($"Loader:Check (--check) checks a single load; run it without {verb}.");
        }
    }

    private static ValidateOptionsResult Result(SettingFailures failures) =>
        failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;

    /// <summary>The input and the outputs: a blob URL that parses (an output's names a blob, not a prefix), or a path.</summary>
    private static void ValidateLocations(LoaderOptions options, SettingFailures failures)
    {
        if (string.IsNullOrWhiteSpace(options.Input))
        {
            failures.Add("Loader:Input is required: the path or blob URL of the CSV to load (--input path).");
        }
        else if (BlobClientFactory.IsUrl(options.Input) && !BlobAddress.TryParse(options.Input, out _, out var error))
        {
            failures.Add($"Loader:Input: {error}");
        }

        foreach (var (key, setting) in new[] { ("Loader:ReportPath", options.ReportPath), ("Loader:RejectsPath", options.RejectsPath), ("Loader:CheckpointPath", options.CheckpointPath), (VerifyReportLocation.Key, options.Verify.ReportPath) })
        {
            if (!BlobClientFactory.IsUrl(setting))
            {
                continue;
            }

            if (!BlobAddress.TryParse(setting!, out var address, out var error))
            {
                failures.Add($"{key}: {error}");
            }
            else if (address.IsPrefix)
            {
                failures.Add($"{key}: '{address.Display}' names a prefix (it ends with / or *); give the blob the file goes to.");
            }
        }
    }

    /// <summary>
    /// Loader:PartitionKey: one template, or for a hierarchical Cosmos DB key one per path of Loader:Cosmos:PartitionKeyPaths,
    /// separated by commas. A level at <c>/id</c> must be the item's id, so its template must be Loader:RowKey's.
    /// </summary>
    private static void ValidatePartitionKey(LoaderOptions options, SettingFailures failures)
    {
        var paths = options.Backend == BackendKind.Cosmos ? options.Cosmos.KeyPaths : [];
        if (paths.Count <= 1)
        {
            ValidateTemplate("Loader:PartitionKey", options.PartitionKey, ForbiddenInPartitionKey(options.Backend), failures);
            CheckIdLevel(paths.Count == 1 ? paths[0] : null, options.PartitionKey, "Loader:PartitionKey", options, failures);
            return;
        }

        var levels = KeyTemplate.SplitLevels(options.PartitionKey);
        if (levels.Count != paths.Count)
        {
            failures.Add(SettingFailures.Invariant(
                $"Loader:PartitionKey '{options.PartitionKey}' has {levels.Count} template(s), but Loader:Cosmos:PartitionKeyPaths names {paths.Count} paths ({string.Join(", ", paths)}): give one template per path, separated by commas, e.g. {string.Join(",", paths.Select(path => "{" + path.Segments[^1] + "}"))}."));
            return;
        }

        for (var i = 0; i < levels.Count; i++)
        {
            var key = SettingFailures.Invariant($"Loader:PartitionKey (level {i + 1}, {paths[i]})");
            ValidateTemplate(key, levels[i], null, failures);
            CheckIdLevel(paths[i], levels[i], key, options, failures);
        }
    }

    private static void CheckIdLevel(CosmosKeyPath? path, string template, string key, LoaderOptions options, SettingFailures failures)
    {
        if (path is { Segments: ["id"] } && !string.Equals(template.Trim(), options.RowKey.Trim(), StringComparison.Ordinal))
        {
            failures.Add($"{key} '{template}' fills the path /id, which is the item's id: it must be Loader:RowKey's template '{options.RowKey}'.");
        }
    }

    /// <summary>A column given a type and also skipped says two things at once: which one was meant is not for the loader to guess.</summary>
    private static void ValidateSkippedColumns(LoaderOptions options, SettingFailures failures)
    {
        foreach (var column in options.SkippedColumns().Where(options.Columns.ContainsKey).Order(StringComparer.Ordinal))
        {
            failures.Add($"Loader:SkipColumns leaves out column '{column}', which Loader:Columns:{column} gives a type: drop one of the two.");
        }
    }

    /// <summary>Json columns are for Cosmos DB: a Table Storage entity is flat, its properties typed values, none an object or array.</summary>
    private static void ValidateColumnTypes(LoaderOptions options, SettingFailures failures)
    {
        if (options.Backend != BackendKind.Tables)
        {
            return;
        }

        foreach (var (column, type) in options.Columns.Where(pair => pair.Value == ColumnType.Json).OrderBy(pair => pair.Key, StringComparer.Ordinal))
        {
            failures.Add($"Loader:Columns:{column} is {type}, which Table Storage cannot store: its entities are flat, with no object or array values (Json columns are for Loader:Backend=Cosmos).");
        }
    }

    /// <summary>A template that does not parse, or whose literal text holds a character the service refuses in that key (every row would be rejected).</summary>
    private static void ValidateTemplate(string key, string template, (string Service, Func<string, string?> Forbidden)? rule, SettingFailures failures)
    {
        KeyTemplate parsed;
        try
        {
            parsed = KeyTemplate.Parse(template);
        }
        catch (FormatException exception)
        {
            failures.Add($"{key} '{template}' {exception.Message}");
            return;
        }

        if (rule is { } keyRule && parsed.Segments.Where(segment => !segment.IsColumn).Select(segment => keyRule.Forbidden(segment.Value)).FirstOrDefault(bad => bad is not null) is { } character)
        {
            failures.Add($"{key} '{template}' holds {character} outside its columns: {keyRule.Service} refuses it in this key, so every row would be rejected.");
        }
    }

    private static (string, Func<string, string?>)? ForbiddenInPartitionKey(BackendKind backend) =>
        backend == BackendKind.Tables ? ("Table Storage", TableEntityRules.ForbiddenKeyCharacter) : null;

    private static (string, Func<string, string?>)? ForbiddenInRowKey(BackendKind backend) =>
        backend == BackendKind.Tables ? ("Table Storage", TableEntityRules.ForbiddenKeyCharacter) : ("Cosmos DB (the row key is the item id)", CosmosItemRules.ForbiddenIdCharacter);
}
