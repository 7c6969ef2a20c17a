using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Checks <c>Loader:Cosmos</c>: database and container named, one way to reach the account that parses, a partition
/// key path of one property, throughput the service accepts, the emulator's certificate trusted only for a local one.
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
        var path = options.PartitionKeyPath;
        if (path.Length < 2 || path[0] != '/' || path.IndexOf('/', 1) >= 0)
        {
            failures.Add($"{section}:PartitionKeyPath '{path}' must name one top-level property, e.g. /pk.");
        }

        failures.Bounds(section, options);

        if (options.TrustEmulatorCertificate && endpoint is not null && !CosmosConnectionString.IsLocal(endpoint))
        {
            failures.Add($"{section}:TrustEmulatorCertificate is for a local emulator only; '{endpoint.Host}' is not local.");
        }

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
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
