using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Configuration;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// What a checkpoint is tied to: the input (<see cref="Inputs.InputSource.Identify"/>) and the settings that decide
/// what is written where. Never a secret: endpoints, not connection strings.
/// </summary>
public static class LoadIdentity
{
    public static IReadOnlyDictionary<string, string> OfSettings(LoaderOptions options)
    {
        var settings = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["Loader:Backend"] = options.Backend.ToString(),
            ["Loader:PartitionKey"] = options.PartitionKey,
            ["Loader:RowKey"] = options.RowKey,
            ["Loader:WriteMode"] = options.WriteMode.ToString(),
            ["Loader:Csv:Delimiter"] = options.Csv.Delimiter,
            ["Loader:Csv:Culture"] = options.Csv.Culture,
        };
        foreach (var (column, type) in options.Columns)
        {
            settings[$"Loader:Columns:{column}"] = type.ToString();
        }

        if (options.Backend == BackendKind.Tables)
        {
            settings["Loader:Tables:Endpoint"] = options.Tables.ServiceEndpoint().AbsoluteUri;
            settings["Loader:Tables:Table"] = options.Tables.Table;
        }
        else
        {
            settings["Loader:Cosmos:Endpoint"] = string.IsNullOrWhiteSpace(options.Cosmos.Endpoint)
                ? CosmosConnectionString.Endpoint(options.Cosmos.ConnectionString!).AbsoluteUri
                : options.Cosmos.Endpoint;
            settings["Loader:Cosmos:Database"] = options.Cosmos.Database;
            settings["Loader:Cosmos:Container"] = options.Cosmos.Container;
            settings["Loader:Cosmos:PartitionKeyPath"] = options.Cosmos.PartitionKeyPath;
        }

        return settings;
    }

    /// <summary>Why a checkpoint does not belong to this load, naming what differs; null when it does.</summary>
    public static string? Mismatch(Checkpoint checkpoint, InputIdentity input, IReadOnlyDictionary<string, string> settings) =>
        Mismatch(checkpoint.Input, checkpoint.Settings, input, settings, "the checkpoint was written");

    /// <summary>
    /// Why what was recorded (by a checkpoint, or a sharded load's manifest) does not belong to this input and these
    /// settings, naming what differs; null when it does. <paramref name="since"/> says when it was recorded.
    /// </summary>
    public static string? Mismatch(InputIdentity recordedInput, IReadOnlyDictionary<string, string> recordedSettings, InputIdentity input, IReadOnlyDictionary<string, string> settings, string since)
    {
        if (recordedInput != input)
        {
            return recordedInput.Length != input.Length || recordedInput.Name != input.Name
                ? $"it was written for input '{recordedInput.Name}' of {recordedInput.Length:N0} bytes, this input is '{input.Name}' of {input.Length:N0} bytes"
                : $"input '{input.Name}' has changed since {since}";
        }

        var differing = settings.Keys.Union(recordedSettings.Keys)
            .Where(key => settings.GetValueOrDefault(key) != recordedSettings.GetValueOrDefault(key))
            .Order(StringComparer.Ordinal)
            .Select(key => $"{key} was '{recordedSettings.GetValueOrDefault(key)}', is '{settings.GetValueOrDefault(key)}'")
            .ToList();
        return differing.Count == 0 ? null : "the settings differ: " + string.Join("; ", differing);
    }
}
