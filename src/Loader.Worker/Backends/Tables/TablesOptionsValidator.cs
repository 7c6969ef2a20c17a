using System.Text.RegularExpressions;
using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Backends.Tables;

/// <summary>Checks <c>Loader:Tables</c>: a table name the service accepts, and one way to reach the account that parses.</summary>
/// <param name="section">The section's key, e.g. <c>Loader:Tables</c>: each message names its setting in full under it.</param>
internal sealed partial class TablesOptionsValidator(string section) : IValidateOptions<TablesOptions>
{
    public ValidateOptionsResult Validate(string? name, TablesOptions options)
    {
        var failures = new SettingFailures();
        failures.Bounds(section, options);
        if (string.IsNullOrWhiteSpace(options.Table))
        {
            failures.Add($"{section}:Table is required: the name of the target table.");
        }
        else if (!TableName().IsMatch(options.Table))
        {
            failures.Add($"{section}:Table '{options.Table}' is not a valid table name: 3 to 63 letters and digits, starting with a letter.");
        }
        else if (string.Equals(options.Table, "tables", StringComparison.OrdinalIgnoreCase))
        {
            failures.Add($"{section}:Table '{options.Table}' is a name the Table service keeps for itself; choose another.");
        }

        if (!string.IsNullOrWhiteSpace(options.Endpoint))
        {
            if (!string.IsNullOrWhiteSpace(options.ConnectionString))
            {
                failures.Add($"{section}:Endpoint and {section}:ConnectionString are both set: give one (Endpoint signs in with DefaultAzureCredential).");
            }

            if (!Uri.TryCreate(options.Endpoint, UriKind.Absolute, out var endpoint) || endpoint.Scheme is not ("https" or "http"))
            {
                // Quoted without its query string, which may be a shared access signature.
                failures.Add($"{section}:Endpoint '{options.Endpoint.Split('?')[0]}' is not an http(s) URL, e.g. https://account.table.core.windows.net.");
            }
        }
        else if (TablesOptions.CheckConnectionString(options.EffectiveConnectionString, out _) is { } problem)
        {
            failures.Add($"{section}:ConnectionString is not a valid storage connection string: {problem}");
        }

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }

    [GeneratedRegex("^[A-Za-z][A-Za-z0-9]{2,62}$")]
    private static partial Regex TableName();
}
