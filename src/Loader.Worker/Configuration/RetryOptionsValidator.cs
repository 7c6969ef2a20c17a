using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>Checks <c>Loader:Retry</c>: a bounded number of attempts and positive delays and time limits.</summary>
public sealed class RetryOptionsValidator : IValidateOptions<RetryOptions>
{
    public ValidateOptionsResult Validate(string? name, RetryOptions options)
    {
        var failures = new SettingFailures();
        failures.Range("Loader:Retry:MaxAttempts", options.MaxAttempts, 0, 1000);
        failures.Positive("Loader:Retry:BaseDelay", options.BaseDelay);
        failures.Positive("Loader:Retry:MaxDelay", options.MaxDelay);
        failures.Positive("Loader:Retry:AttemptTimeout", options.AttemptTimeout);
        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
