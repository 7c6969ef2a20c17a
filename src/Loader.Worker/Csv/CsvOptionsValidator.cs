using System.Globalization;
using Loader.Abstractions;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Csv;

/// <summary>Checks <c>Loader:Csv</c>: a delimiter the reader can split on, limits in range, a culture and a time zone that exist.</summary>
/// <param name="section">The section's key, e.g. <c>Loader:Csv</c>: each message names its setting in full under it.</param>
internal sealed class CsvOptionsValidator(string section) : IValidateOptions<CsvOptions>
{
    public ValidateOptionsResult Validate(string? name, CsvOptions options)
    {
        var failures = new SettingFailures();
        try
        {
            if (CsvRecordReader.Separator(options.Delimiter) is '"' or '\r' or '\n')
            {
                failures.Add($"{section}:Delimiter cannot be a quote or a line break.");
            }
        }
        catch (FormatException exception)
        {
            failures.Add($"{section}:Delimiter {exception.Message}");
        }

        failures.Bounds(section, options);
        if (!string.IsNullOrWhiteSpace(options.Culture))
        {
            try
            {
                _ = CultureInfo.GetCultureInfo(options.Culture, predefinedOnly: true);
            }
            catch (CultureNotFoundException)
            {
                failures.Add($"{section}:Culture '{options.Culture}' is not a known culture name (for example en-US, de-DE; empty for invariant).");
            }
        }

        if (options.TimeZone is null || !TimeZoneInfo.TryFindSystemTimeZoneById(options.TimeZone, out _))
        {
            failures.Add($"{section}:TimeZone '{options.TimeZone}' is not a time zone this machine knows: UTC, an IANA id (Europe/Berlin) or a Windows id (W. Europe Standard Time).");
        }

        return failures.Any ? ValidateOptionsResult.Fail(failures.Messages) : ValidateOptionsResult.Success;
    }
}
