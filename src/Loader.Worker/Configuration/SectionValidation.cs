using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>How the root validator gathers what the section validators found.</summary>
internal static class SectionValidation
{
    /// <summary>Adds what a section's validator found, so the root's one listing names every problem at once.</summary>
    public static void AddSection<T>(this SettingFailures failures, IValidateOptions<T> validator, T section)
        where T : class
    {
        if (validator.Validate(null, section) is { Failed: true, Failures: { } found })
        {
            failures.AddRange(found);
        }
    }
}
