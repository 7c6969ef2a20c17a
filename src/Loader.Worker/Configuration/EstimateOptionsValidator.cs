using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>Checks <c>Loader:Estimate</c>: a sample of no rows or more, and prices that are not negative.</summary>
/// <param name="section">The section's key, e.g. <c>Loader:Estimate</c>: each message names its setting in full under it.</param>
internal sealed class EstimateOptionsValidator(string section) : IValidateOptions<EstimateOptions>
{
    public ValidateOptionsResult Validate(string? name, EstimateOptions options)
    {
        var failures = new SettingFailures();
        failures.Bounds(section, options);
        failures.Bounds($"{section}:{nameof(EstimateOptions.Prices)}", options.Prices);
        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
