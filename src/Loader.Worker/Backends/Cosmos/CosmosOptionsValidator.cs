using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Checks <c>Loader:Cosmos</c>: database and container named, one way to reach the account that parses, partition
/// key paths the service takes (one, or up to three for a hierarchical key), a path separator, throughput the service accepts, the emulator's certificate trusted only for a local one.
/// </summary>
/// <param name="section">The section's key, e.g. <c>Loader:Cosmos</c>: each message names its setting in full under it.</param>
internal sealed class CosmosOptionsValidator(string section) : IValidateOptions<CosmosOptions>
{
    public ValidateOptionsResult Validate(string? name, CosmosOptions options)
    {
        var failures = new SettingFailures();
        failures.Required($"{section}:Database", options.Database, "the database name");
        failures.Required($"{section}:Container", options.Container, "the container name");
        var endpoint = Endpoint(options, failures);
        KeyPaths(options, failures);
        if (string.IsNullOrEmpty(options.PathSeparator) || options.PathSeparator.Any(char.IsWhiteSpace))
        {
            failures.Add($"{section}:PathSeparator '{options.PathSeparator}' must be one or more characters without whitespace, e.g. '.'.");
        }

        failures.Bounds(section, options);
        if (options.TimeToLive == 0)
        {
            failures.Add($"{section}:TimeToLive 0 is not a time to live the service takes: give -1 (never expires) or seconds from 1.");
        }

        if (options.TimeToLive is not null && !string.IsNullOrWhiteSpace(options.TimeToLiveColumn))
        {
            failures.Add($"{section}:TimeToLive and {section}:TimeToLiveColumn are both set: give one (a fixed ttl, or each row's from a column).");
        }

        if (options.TrustEmulatorCertificate && endpoint is not null && !CosmosConnectionString.IsLocal(endpoint))
        {
            failures.Add($"{section}:TrustEmulatorCertificate is for a local emulator only; '{endpoint.Host}' is not local.");
        }

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }

    /// <summary>
    /// The partition key's paths: PartitionKeyPath, or one to three in PartitionKeyPaths (not both), each parsing, none
    /// the same as another or holding it (<c>/a</c> and <c>/a/b</c>: an item cannot have a value at both).
    /// </summary>
    private void KeyPaths(CosmosOptions options, SettingFailures failures)
    {
        if (string.IsNullOrWhiteSpace(options.PartitionKeyPaths))
        {
            if (CosmosKeyPath.TryParse(options.PartitionKeyPath) is null)
            {
                failures.Add($"{section}:PartitionKeyPath '{options.PartitionKeyPath}' must be / and a property name, nested with more /name, e.g. /pk or /customer/id.");
            }

            return;
        }

        var key = $"{section}:PartitionKeyPaths";
        if (options.PartitionKeyPath != new CosmosOptions().PartitionKeyPath)
        {
            failures.Add($"{key} '{options.PartitionKeyPaths}' and {section}:PartitionKeyPath '{options.PartitionKeyPath}' are both set: give the key's paths in one of them.");
        }

        var texts = options.PartitionKeyPaths.Split(',');
        if (texts.Length > CosmosLimits.MaxPartitionKeyPaths)
        {
            failures.Add(SettingFailures.Invariant($"{key} '{options.PartitionKeyPaths}' has {texts.Length} paths; a hierarchical partition key has at most {CosmosLimits.MaxPartitionKeyPaths}."));
        }

        var paths = new List<CosmosKeyPath>();
        foreach (var text in texts)
        {
            if (CosmosKeyPath.TryParse(text) is not { } path)
            {
                failures.Add($"{key}: '{text.Trim()}' must be / and a property name, nested with more /name, e.g. /tenantId or /customer/id.");
            }
            else if (paths.FirstOrDefault(path.Overlaps) is { } other)
            {
                failures.Add(other.Segments.Count == path.Segments.Count
                    ? $"{key} names '{path.Text}' twice: each level of the key has its own path."
                    : $"{key} names '{other.Text}' and '{path.Text}': an item cannot have a value at a path and within it.");
            }
            else
            {
                paths.Add(path);
            }
        }
    }

    /// <summary>The account's endpoint, from whichever of Endpoint and ConnectionString is given; null (and a failure) when neither or both.</summary>
    private Uri? Endpoint(CosmosOptions options, SettingFailures failures)
    {
        var hasEndpoint = !string.IsNullOrWhiteSpace(options.Endpoint);
        if (hasEndpoint == !string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            failures.Add(hasEndpoint
                ? $"{section}:Endpoint and {section}:ConnectionString are both set: give one (Endpoint signs in with DefaultAzureCredential)."
                : $"{section}:ConnectionString or {section}:Endpoint is required to reach the account.");
            return null;
        }

        if (hasEndpoint)
        {
            if (Uri.TryCreate(options.Endpoint, UriKind.Absolute, out var endpoint) && endpoint.Scheme == Uri.UriSchemeHttps)
            {
                return endpoint;
            }

            failures.Add($"{section}:Endpoint '{options.Endpoint}' is not an https URL, e.g. https://account.documents.azure.com:443/.");
            return null;
        }

        try
        {
            return CosmosConnectionString.Endpoint(options.ConnectionString!);
        }
        catch (FormatException exception)
        {
            failures.Add($"{section}:ConnectionString is not a valid Cosmos DB connection string: {exception.Message}");
            return null;
        }
    }
}
