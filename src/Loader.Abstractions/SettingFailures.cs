using System.Globalization;
using System.Reflection;

namespace Loader.Abstractions;

/// <summary>
/// What is wrong with a section of settings, one message per problem, each naming the setting's full key (e.g.
/// <c>Loader:Retry:MaxAttempts</c>) and the value it had. Shared by the section validators so every section words
/// the same kind of problem the same way; adapters validate their own section with it.
/// </summary>
public sealed class SettingFailures
{
    private readonly List<string> _messages = [];

    public IReadOnlyList<string> Messages => _messages;

    public bool Any => _messages.Count > 0;

    public void Add(string message) => _messages.Add(message);

    public void AddRange(IEnumerable<string> messages) => _messages.AddRange(messages);

    public void Required(string key, string? value, string what)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            _messages.Add($"{key} is required: {what}.");
        }
    }

    /// <summary>
    /// Checks every setting of <paramref name="options"/> that declares its range (<see cref="SettingRange"/>) or is a
    /// choice (an enum, whose named values alone are settings), naming each under <paramref name="section"/>, e.g.
    /// <c>Loader:Retry:MaxAttempts</c>. The sections within <paramref name="options"/> are their own validators'.
    /// </summary>
    public void Bounds(string section, object options)
    {
        foreach (var property in options.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance))
        {
            if (property.SetMethod is not { IsPublic: true })
            {
                continue;
            }

            var key = $"{section}:{property.Name}";
            var value = property.GetValue(options);
            if (SettingRange.Of(property) is { } range)
            {
                if (!range.Contains(value))
                {
                    _messages.Add($"{key} must be {range.Requirement}, was {SettingRange.Format(value)}.");
                }
            }
            else if ((Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType) is { IsEnum: true } enumType
                && value is not null && !Enum.IsDefined(enumType, value))
            {
                // An optional enum setting (unset: null) binds any number as well.
                _messages.Add($"{key} '{value}' is not one of {string.Join(", ", Enum.GetNames(enumType))}.");
            }
        }
    }

    /// <summary>An enum setting given as a number binds to any number: only the named values are settings.</summary>
    public void Defined<T>(string key, T value)
        where T : struct, Enum
    {
        if (!Enum.IsDefined(value))
        {
            _messages.Add($"{key} '{value}' is not one of {string.Join(", ", Enum.GetNames<T>())}.");
        }
    }

    public static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
