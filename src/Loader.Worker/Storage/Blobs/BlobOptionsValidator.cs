using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Storage.Blobs;

/// <summary>Checks <c>Loader:Blob</c>: a read block size in range and a connection string that parses.</summary>
public sealed class BlobOptionsValidator : IValidateOptions<BlobOptions>
{
    public ValidateOptionsResult Validate(string? name, BlobOptions options)
    {
        var failures = new SettingFailures();
        failures.Range("Loader:Blob:ReadBlockSize", options.ReadBlockSize, 64 * 1024, 100 * 1024 * 1024);
        if (!string.IsNullOrWhiteSpace(options.ConnectionString) && BlobOptions.CheckConnectionString(options.ConnectionString) is { } problem)
        {
            failures.Add($"Loader:Blob:ConnectionString is not usable: {problem}");
        }

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
