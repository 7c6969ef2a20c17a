using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>Checks <c>Loader:Retry</c>: attempts, delays and time limits within the ranges the loader and Polly take (see <see cref="RetryOptions"/>).</summary>
/// <param name="section">The section's key, e.g. <c>Loader:Retry</c>: each message names its setting in full under it.</param>
internal sealed class RetryOptionsValidator(string section) : IValidateOptions<RetryOptions>
{
    public ValidateOptionsResult Validate(string? name, RetryOptions options)
    {
        var failures = new SettingFailures();
        failures.Bounds(section, options);
        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
