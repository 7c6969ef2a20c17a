using Loader.Worker.Backends.Cosmos;

namespace Loader.Worker.Configuration;

/// <summary>
/// The settings that decide what a load writes where, by key: a checkpoint and a sharded load's manifest record them,
/// and a checkpoint or a plan made under other values is not used. Never a secret: endpoints, not connection strings.
/// </summary>
internal static class IdentifyingSettings
{
    public static IReadOnlyDictionary<string, string> Of(LoaderOptions options)
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
        // Only when it is not the default, so that a checkpoint or plan from before the setting existed (UTC, as now) stays valid.
        if (!string.Equals(options.Csv.TimeZone, "UTC", StringComparison.OrdinalIgnoreCase))
        {
            settings["Loader:Csv:TimeZone"] = options.Csv.TimeZone;
        }

        foreach (var (column, type) in options.Columns)
        {
            settings[$"Loader:Columns:{column}"] = type.ToString();
        }

        // Only when set, so that a checkpoint or plan from before the setting existed stays valid.
        if (options.SkippedColumns() is { Count: > 0 } skipped)
        {
            settings["Loader:SkipColumns"] = string.Join(",", skipped.Order(StringComparer.Ordinal));
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
            // Each only when set away from its default, so a checkpoint or plan from before the setting existed stays valid.
            if (!string.IsNullOrWhiteSpace(options.Cosmos.PartitionKeyPaths))
            {
                settings["Loader:Cosmos:PartitionKeyPaths"] = options.Cosmos.PartitionKeyPaths;
            }

            if (options.Cosmos.PathSeparator != ".")
            {
                settings["Loader:Cosmos:PathSeparator"] = options.Cosmos.PathSeparator;
            }
        }

        return settings;
    }
}
