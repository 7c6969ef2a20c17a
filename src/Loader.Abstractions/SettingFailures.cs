using System.Globalization;

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

    public void Range(string key, long value, long min, long max)
    {
        if (value < min || value > max)
        {
            _messages.Add(Invariant($"{key} must be between {min} and {max}, was {value}."));
        }
    }

    public void Positive(string key, TimeSpan value)
    {
        if (value <= TimeSpan.Zero)
        {
            _messages.Add(Invariant($"{key} must be a positive duration such as 00:00:05, was {value}."));
        }
    }

    public void PositiveOrUnset(string key, double? value)
    {
        if (value is { } rate && !(rate > 0 && double.IsFinite(rate)))
        {
            _messages.Add(Invariant($"{key} must be a positive number when set, was {rate}."));
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
