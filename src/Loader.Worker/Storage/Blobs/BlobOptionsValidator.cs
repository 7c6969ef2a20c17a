using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Storage.Blobs;

/// <summary>Checks <c>Loader:Blob</c>: a read block size in range and a connection string that parses.</summary>
/// <param name="section">The section's key, e.g. <c>Loader:Blob</c>: each message names its setting in full under it.</param>
internal sealed class BlobOptionsValidator(string section) : IValidateOptions<BlobOptions>
{
    public ValidateOptionsResult Validate(string? name, BlobOptions options)
    {
        var failures = new SettingFailures();
        failures.Bounds(section, options);
        if (!string.IsNullOrWhiteSpace(options.ConnectionString) && BlobOptions.CheckConnectionString(options.ConnectionString) is { } problem)
        {
            failures.Add($"{section}:ConnectionString is not usable: {problem}");
        }

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
