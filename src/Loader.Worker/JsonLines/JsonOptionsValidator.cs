using Microsoft.Extensions.Options;

namespace Loader.Worker.JsonLines;

/// <summary>Checks <c>Loader:Json</c>; each failure names the setting by its full key.</summary>
internal sealed class JsonOptionsValidator(string section) : IValidateOptions<JsonOptions>
{
    public ValidateOptionsResult Validate(string? name, JsonOptions options)
    {
        if (string.IsNullOrEmpty(options.FlattenSeparator) || !options.FlattenSeparator.All(c => char.IsAsciiLetterOrDigit(c) || c == '_'))
        {
            return ValidateOptionsResult.Fail(
                $"{section}:FlattenSeparator '{options.FlattenSeparator}' must be one or more letters, digits or '_': it joins the names of a flattened path into a Table property name, which holds nothing else.");
        }

        return ValidateOptionsResult.Success;
    }
}
