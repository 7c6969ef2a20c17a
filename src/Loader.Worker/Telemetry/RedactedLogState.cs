using System.Collections;
using Loader.Worker.Security;

namespace Loader.Worker.Telemetry;

/// <summary>
/// A log event's values after <see cref="Redaction"/>, in the shape providers read (the JSON console writes each as a
/// <c>State</c> property): numbers and other values that cannot hold a secret as they were, any other value as its
/// redacted text. The message template (<c>{OriginalFormat}</c>) is the loader's own text and is kept.
/// </summary>
internal sealed class RedactedLogState : IReadOnlyList<KeyValuePair<string, object?>>
{
    private const string OriginalFormat = "{OriginalFormat}";

    private readonly IReadOnlyList<KeyValuePair<string, object?>> _values;

    private RedactedLogState(string message, IReadOnlyList<KeyValuePair<string, object?>> values)
    {
        Message = message;
        _values = values;
    }

    /// <summary>The formatted message, redacted.</summary>
    public string Message { get; }

    public int Count => _values.Count;

    public KeyValuePair<string, object?> this[int index] => _values[index];

    public static RedactedLogState Of<TState>(TState state, string message, Redaction redaction)
    {
        if (state is not IEnumerable<KeyValuePair<string, object?>> values)
        {
            return new RedactedLogState(message, []);
        }

        return new RedactedLogState(message, [.. values.Select(pair => pair.Key == OriginalFormat ? pair : KeyValuePair.Create(pair.Key, Redact(pair.Value, redaction)))]);
    }

    private static object? Redact(object? value, Redaction redaction) => value switch
    {
        null or bool or char or sbyte or byte or short or ushort or int or uint or long or ulong or float or double or decimal or Enum
            or TimeSpan or DateTime or DateTimeOffset or Guid => value,
        string text => redaction.Redact(text),
        _ => value.ToString() is { } text && redaction.Redact(text) is var shown && !ReferenceEquals(shown, text) ? shown : value,
    };

    public IEnumerator<KeyValuePair<string, object?>> GetEnumerator() => _values.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    public override string ToString() => Message;
}
