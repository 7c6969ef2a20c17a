using Loader.Abstractions;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>
/// Checks <c>Loader:Columns</c> as written, since binding loses what is wrong with it: a type the binder cannot read
/// (<c>Decimal</c>, <c>bogus</c>) is left out of the dictionary without a word — the column then loads as text — and
/// a number (<c>99</c>) is taken for a type that does not exist.
/// </summary>
internal sealed class ColumnTypeSettingsValidator(IConfiguration configuration) : IValidateOptions<LoaderOptions>
{
    public ValidateOptionsResult Validate(string? name, LoaderOptions options)
    {
        var failures = new List<string>();
        foreach (var column in configuration.GetSection($"{LoaderOptions.SectionName}:Columns").GetChildren())
        {
            var text = column.Value?.Trim();
            if (string.IsNullOrEmpty(text) || !IsColumnType(text))
            {
                failures.Add($"Loader:Columns:{column.Key} '{text}' is not a column type: use {string.Join(", ", Enum.GetNames<ColumnType>().Where(type => type != nameof(ColumnType.Binary)))} (decimal numbers are Double).");
            }
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static bool IsColumnType(string text) =>
        !char.IsAsciiDigit(text[0]) && text[0] is not ('-' or '+') && Enum.TryParse<ColumnType>(text, ignoreCase: true, out var type) && Enum.IsDefined(type)
        // Binary is what a Parquet BYTE_ARRAY column is read as; no text converts to it.
        && type != ColumnType.Binary;
}
