using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>Checks <c>Loader:Retry</c>: a bounded number of attempts and positive delays and time limits.</summary>
/// <param name="section">The section's key, e.g. <c>Loader:Retry</c>: each message names its setting in full under it.</param>
internal sealed class RetryOptionsValidator(string section) : IValidateOptions<RetryOptions>
{
    public ValidateOptionsResult Validate(string? name, RetryOptions options)
    {
        var failures = new SettingFailures();
        failures.Range($"{section}:MaxAttempts", options.MaxAttempts, 0, 1000);
        failures.Positive($"{section}:BaseDelay", options.BaseDelay);
        failures.Positive($"{section}:MaxDelay", options.MaxDelay);
        failures.Positive($"{section}:AttemptTimeout", options.AttemptTimeout);
        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
