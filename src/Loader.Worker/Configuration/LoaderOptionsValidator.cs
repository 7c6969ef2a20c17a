using System.Globalization;
using System.Text.RegularExpressions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Shards;
using Loader.Worker.Mapping;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Telemetry;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>Checks the settings at start; every message names the setting's key and says what is wrong.</summary>
public sealed partial class LoaderOptionsValidator : IValidateOptions<LoaderOptions>
{
    public ValidateOptionsResult Validate(string? name, LoaderOptions options)
    {
        var failures = new List<string>();
        Defined(failures, "Loader:Command", options.Command);
        if (options.Command != LoaderCommand.Load)
        {
            ShardSettingsValidator.Validate(options, failures);
            if (options.Command == LoaderCommand.Status)
            {
                // Status reads the state folder and the queue; what the load writes where is the manifest's.
                return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
            }
        }

        ValidateInput(options, failures);
        ValidateTemplate("Loader:PartitionKey", options.PartitionKey, ForbiddenInPartitionKey(options.Backend), failures);
        ValidateTemplate("Loader:RowKey", options.RowKey, ForbiddenInRowKey(options.Backend), failures);
        ValidateEnums(options, failures);
        Range(failures, "Loader:BatchSize", options.BatchSize, 1, 100);
        Range(failures, "Loader:MaxParallelBatches", options.MaxParallelBatches, 1, 1024);
        Range(failures, "Loader:MaxBufferedRows", options.MaxBufferedRows, options.BatchSize, 10_000_000);
        if (options.MaxRejects < 0)
        {
            failures.Add(Invariant($"Loader:MaxRejects must be 0 or more (0 allows no rejects), was {options.MaxRejects}."));
        }

        PositiveOrUnset(failures, "Loader:MaxRequestUnitsPerSecond", options.MaxRequestUnitsPerSecond);
        PositiveOrUnset(failures, "Loader:MaxRowsPerSecond", options.MaxRowsPerSecond);
        Positive(failures, "Loader:ProgressInterval", options.ProgressInterval);
        Positive(failures, "Loader:CheckpointInterval", options.CheckpointInterval);
        Positive(failures, "Loader:MaxBatchDelay", options.MaxBatchDelay);
        Positive(failures, "Loader:ConnectTimeout", options.ConnectTimeout);
        Positive(failures, "Loader:ShutdownGracePeriod", options.ShutdownGracePeriod);
        ValidateCsv(options.Csv, failures);
        ValidateRetry(options.Retry, failures);
        ValidateTelemetry(options.Telemetry, failures);
        // Only the chosen backend's settings are checked: a Tables load needs no Cosmos settings and the other way round.
        if (options.Backend == BackendKind.Tables)
        {
            ValidateTables(options.Tables, failures);
        }
        else
        {
            ValidateCosmos(options.Cosmos, failures);
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static void ValidateInput(LoaderOptions options, List<string> failures)
    {
        if (string.IsNullOrWhiteSpace(options.Input))
        {
            failures.Add("Loader:Input is required: the path or blob URL of the CSV to load (--input path).");
        }
        else if (BlobClientFactory.IsUrl(options.Input))
        {
            if (!BlobAddress.TryParse(options.Input, out _, out var error))
            {
                failures.Add($"Loader:Input: {error}");
            }
        }
        else if (!File.Exists(options.Input))
        {
            failures.Add($"Loader:Input '{options.Input}' does not exist.");
        }

        foreach (var (key, setting) in new[] { ("Loader:ReportPath", options.ReportPath), ("Loader:RejectsPath", options.RejectsPath), ("Loader:CheckpointPath", options.CheckpointPath) })
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

        Range(failures, "Loader:Blob:ReadBlockSize", options.Blob.ReadBlockSize, 64 * 1024, 100 * 1024 * 1024);
        if (!string.IsNullOrWhiteSpace(options.Blob.ConnectionString) && BlobOptions.CheckConnectionString(options.Blob.ConnectionString) is { } problem)
        {
            failures.Add($"Loader:Blob:ConnectionString is not usable: {problem}");
        }
    }

    private static void ValidateTelemetry(TelemetryOptions telemetry, List<string> failures)
    {
        if (!string.IsNullOrWhiteSpace(telemetry.AzureMonitorConnectionString) && ApplicationInsightsConnectionString.IngestionEndpoint(telemetry.AzureMonitorConnectionString) is null)
        {
            // The value itself is not repeated: it holds an instrumentation key.
            failures.Add("Loader:Telemetry:AzureMonitorConnectionString is not an Application Insights connection string (InstrumentationKey=...;IngestionEndpoint=...).");
        }

        if (!string.IsNullOrWhiteSpace(telemetry.OtlpEndpoint) && MetricsDestinations.Endpoint(telemetry.OtlpEndpoint) is null)
        {
            failures.Add($"Loader:Telemetry:OtlpEndpoint '{telemetry.OtlpEndpoint}' is not an http(s) URL of an OTLP collector, e.g. http://otel-collector:4317.");
        }

        if (telemetry.OtlpProtocol is { Length: > 0 } protocol && !string.Equals(protocol, "Grpc", StringComparison.OrdinalIgnoreCase)
            && !string.Equals(protocol, "HttpProtobuf", StringComparison.OrdinalIgnoreCase) && !string.Equals(protocol, "http/protobuf", StringComparison.OrdinalIgnoreCase))
        {
            failures.Add($"Loader:Telemetry:OtlpProtocol '{protocol}' is not Grpc or HttpProtobuf.");
        }

        if (telemetry.ExportInterval < TimeSpan.FromSeconds(1))
        {
            failures.Add($"Loader:Telemetry:ExportInterval must be at least 1 second, was {telemetry.ExportInterval}.");
        }
    }

    /// <summary>A template that does not parse, or whose literal text holds a character the service refuses in that key (every row would be rejected).</summary>
    private static void ValidateTemplate(string key, string template, (string Service, Func<string, string?> Forbidden)? rule, List<string> failures)
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

    /// <summary>An enum setting given as a number binds to any number: only the named values are settings.</summary>
    private static void ValidateEnums(LoaderOptions options, List<string> failures)
    {
        Defined(failures, "Loader:Backend", options.Backend);
        Defined(failures, "Loader:WriteMode", options.WriteMode);
        Defined(failures, "Loader:Concurrency", options.Concurrency);
        Defined(failures, "Loader:LogFormat", options.LogFormat);
        Defined(failures, "Loader:Csv:Compression", options.Csv.Compression);
        Defined(failures, "Loader:Cosmos:Mode", options.Cosmos.Mode);
        Defined(failures, "Loader:Cosmos:ConnectionMode", options.Cosmos.ConnectionMode);
        Defined(failures, "Loader:Telemetry:AzureMonitorAuthentication", options.Telemetry.AzureMonitorAuthentication);
    }

    private static void Defined<T>(List<string> failures, string key, T value)
        where T : struct, Enum
    {
        if (!Enum.IsDefined(value))
        {
            failures.Add($"{key} '{value}' is not one of {string.Join(", ", Enum.GetNames<T>())}.");
        }
    }

    private static void ValidateCsv(CsvOptions csv, List<string> failures)
    {
        try
        {
            var separator = Csv.CsvRecordReader.Separator(csv.Delimiter);
            if (separator is '"' or '\r' or '\n')
            {
                failures.Add("Loader:Csv:Delimiter cannot be a quote or a line break.");
            }
        }
        catch (FormatException exception)
        {
            failures.Add($"Loader:Csv:Delimiter {exception.Message}");
        }

        Range(failures, "Loader:Csv:MaxLinesInQuotes", csv.MaxLinesInQuotes, 1, 1_000_000);
        Range(failures, "Loader:Csv:MaxRecordBytes", csv.MaxRecordBytes, 4096, 256 * 1024 * 1024);
        if (!string.IsNullOrWhiteSpace(csv.Culture))
        {
            try
            {
                _ = CultureInfo.GetCultureInfo(csv.Culture, predefinedOnly: true);
            }
            catch (CultureNotFoundException)
            {
                failures.Add($"Loader:Csv:Culture '{csv.Culture}' is not a known culture name (for example en-US, de-DE; empty for invariant).");
            }
        }
    }

    private static void ValidateRetry(RetryOptions retry, List<string> failures)
    {
        Range(failures, "Loader:Retry:MaxAttempts", retry.MaxAttempts, 0, 1000);
        Positive(failures, "Loader:Retry:BaseDelay", retry.BaseDelay);
        Positive(failures, "Loader:Retry:MaxDelay", retry.MaxDelay);
        Positive(failures, "Loader:Retry:AttemptTimeout", retry.AttemptTimeout);
    }

    private static void ValidateTables(TablesOptions tables, List<string> failures)
    {
        if (string.IsNullOrWhiteSpace(tables.Table))
        {
            failures.Add("Loader:Tables:Table is required: the name of the target table.");
        }
        else if (!TableName().IsMatch(tables.Table))
        {
            failures.Add($"Loader:Tables:Table '{tables.Table}' is not a valid table name: 3 to 63 letters and digits, starting with a letter.");
        }
        else if (string.Equals(tables.Table, "tables", StringComparison.OrdinalIgnoreCase))
        {
            failures.Add($"Loader:Tables:Table '{tables.Table}' is a name the Table service keeps for itself; choose another.");
        }

        if (!string.IsNullOrWhiteSpace(tables.Endpoint))
        {
            if (!string.IsNullOrWhiteSpace(tables.ConnectionString))
            {
                failures.Add("Loader:Tables:Endpoint and Loader:Tables:ConnectionString are both set: give one (Endpoint signs in with DefaultAzureCredential).");
            }

            if (!Uri.TryCreate(tables.Endpoint, UriKind.Absolute, out var endpoint) || endpoint.Scheme is not ("https" or "http"))
            {
                // Quoted without its query string, which may be a shared access signature.
                failures.Add($"Loader:Tables:Endpoint '{tables.Endpoint.Split('?')[0]}' is not an http(s) URL, e.g. https://account.table.core.windows.net.");
            }

            return;
        }

        if (TablesOptions.CheckConnectionString(tables.EffectiveConnectionString, out _) is { } problem)
        {
            failures.Add($"Loader:Tables:ConnectionString is not a valid storage connection string: {problem}");
        }
    }

    private static void ValidateCosmos(CosmosOptions cosmos, List<string> failures)
    {
        Required(failures, "Loader:Cosmos:Database", cosmos.Database, "the database name");
        Required(failures, "Loader:Cosmos:Container", cosmos.Container, "the container name");
        Uri? endpoint = null;
        var hasEndpoint = !string.IsNullOrWhiteSpace(cosmos.Endpoint);
        var hasConnectionString = !string.IsNullOrWhiteSpace(cosmos.ConnectionString);
        if (hasEndpoint == hasConnectionString)
        {
            failures.Add(hasEndpoint
                ? "Loader:Cosmos:Endpoint and Loader:Cosmos:ConnectionString are both set: give one (Endpoint signs in with DefaultAzureCredential)."
                : "Loader:Cosmos:ConnectionString or Loader:Cosmos:Endpoint is required to reach the account.");
        }
        else if (hasEndpoint)
        {
            if (!Uri.TryCreate(cosmos.Endpoint, UriKind.Absolute, out endpoint) || endpoint.Scheme != Uri.UriSchemeHttps)
            {
                failures.Add($"Loader:Cosmos:Endpoint '{cosmos.Endpoint}' is not an https URL, e.g. https://account.documents.azure.com:443/.");
            }
        }
        else
        {
            try
            {
                endpoint = CosmosConnectionString.Endpoint(cosmos.ConnectionString!);
            }
            catch (FormatException exception)
            {
                failures.Add($"Loader:Cosmos:ConnectionString is not a valid Cosmos DB connection string: {exception.Message}");
            }
        }

        var path = cosmos.PartitionKeyPath;
        if (path.Length < 2 || path[0] != '/' || path.IndexOf('/', 1) >= 0)
        {
            failures.Add($"Loader:Cosmos:PartitionKeyPath '{path}' must name one top-level property, e.g. /pk.");
        }

        if (cosmos.Throughput is { } manual && manual < 400)
        {
            failures.Add(Invariant($"Loader:Cosmos:Throughput must be at least 400 RU/s, was {manual}."));
        }

        if (cosmos.AutoscaleMaxThroughput is { } max && max < 1000)
        {
            failures.Add(Invariant($"Loader:Cosmos:AutoscaleMaxThroughput must be at least 1000 RU/s, was {max}."));
        }

        if (cosmos.TrustEmulatorCertificate && endpoint is not null && !CosmosConnectionString.IsLocal(endpoint))
        {
            failures.Add($"Loader:Cosmos:TrustEmulatorCertificate is for a local emulator only; '{endpoint.Host}' is not local.");
        }
    }

    private static void Required(List<string> failures, string key, string value, string what)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            failures.Add($"{key} is required: {what}.");
        }
    }

    private static void Range(List<string> failures, string key, long value, long min, long max)
    {
        if (value < min || value > max)
        {
            failures.Add(Invariant($"{key} must be between {min} and {max}, was {value}."));
        }
    }

    private static void PositiveOrUnset(List<string> failures, string key, double? value)
    {
        if (value is { } rate && !(rate > 0 && double.IsFinite(rate)))
        {
            failures.Add(Invariant($"{key} must be a positive number when set, was {rate}."));
        }
    }

    private static void Positive(List<string> failures, string key, TimeSpan value)
    {
        if (value <= TimeSpan.Zero)
        {
            failures.Add(Invariant($"{key} must be a positive duration such as 00:00:05, was {value}."));
        }
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    [GeneratedRegex("^[A-Za-z][A-Za-z0-9]{2,62}$")]
    private static partial Regex TableName();
}
