using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Checks <c>Loader:Cosmos</c>: database and container named, one way to reach the account that parses, a partition
/// key path of one property, throughput the service accepts, the emulator's certificate trusted only for a local one.
/// </summary>
public sealed class CosmosOptionsValidator : IValidateOptions<CosmosOptions>
{
    public ValidateOptionsResult Validate(string? name, CosmosOptions options)
    {
        var failures = new SettingFailures();
        failures.Defined("Loader:Cosmos:Mode", options.Mode);
        failures.Defined("Loader:Cosmos:ConnectionMode", options.ConnectionMode);
        failures.Required("Loader:Cosmos:Database", options.Database, "the database name");
        failures.Required("Loader:Cosmos:Container", options.Container, "the container name");
        var endpoint = Endpoint(options, failures);
        var path = options.PartitionKeyPath;
        if (path.Length < 2 || path[0] != '/' || path.IndexOf('/', 1) >= 0)
        {
            failures.Add($"Loader:Cosmos:PartitionKeyPath '{path}' must name one top-level property, e.g. /pk.");
        }

        if (options.Throughput is { } manual && manual < 400)
        {
            failures.Add(SettingFailures.Invariant($"Loader:Cosmos:Throughput must be at least 400 RU/s, was {manual}."));
        }

        if (options.AutoscaleMaxThroughput is { } max && max < 1000)
        {
            failures.Add(SettingFailures.Invariant($"Loader:Cosmos:AutoscaleMaxThroughput must be at least 1000 RU/s, was {max}."));
        }

        if (options.TrustEmulatorCertificate && endpoint is not null && !CosmosConnectionString.IsLocal(endpoint))
        {
            failures.Add($"Loader:Cosmos:TrustEmulatorCertificate is for a local emulator only; '{endpoint.Host}' is not local.");
        }

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }

    /// <summary>The account's endpoint, from whichever of Endpoint and ConnectionString is given; null (and a failure) when neither or both.</summary>
    private static Uri? Endpoint(CosmosOptions options, SettingFailures failures)
    {
        var hasEndpoint = !string.IsNullOrWhiteSpace(options.Endpoint);
        if (hasEndpoint == !string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            failures.Add(hasEndpoint
                ? "Loader:Cosmos:Endpoint and Loader:Cosmos:ConnectionString are both set: give one (Endpoint signs in with DefaultAzureCredential)."
                : "Loader:Cosmos:ConnectionString or Loader:Cosmos:Endpoint is required to reach the account.");
            return null;
        }

        if (hasEndpoint)
        {
            if (Uri.TryCreate(options.Endpoint, UriKind.Absolute, out var endpoint) && endpoint.Scheme == Uri.UriSchemeHttps)
            {
                return endpoint;
            }

            failures.Add($"Loader:Cosmos:Endpoint '{options.Endpoint}' is not an https URL, e.g. https://account.documents.azure.com:443/.");
            return null;
        }

        try
        {
            return CosmosConnectionString.Endpoint(options.ConnectionString!);
        }
        catch (FormatException exception)
        {
            failures.Add($"Loader:Cosmos:ConnectionString is not a valid Cosmos DB connection string: {exception.Message}");
            return null;
        }
    }
}
