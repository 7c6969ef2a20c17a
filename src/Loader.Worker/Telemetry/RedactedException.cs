using Loader.Worker.Security;

namespace Loader.Worker.Telemetry;

/// <summary>
/// What a log provider is given of an exception: its message and its whole text (type, message, inner exceptions,
/// stack) after <see cref="Redaction"/>. An SDK's exception may quote a request URL with its signature or a key.
/// </summary>
internal sealed class RedactedException(Exception original, Redaction redaction) : Exception(redaction.Redact(original.Message))
{
    private readonly string _text = redaction.Redact(original.ToString());

    /// <summary>The short name of the exception's own type, for a log line that names it.</summary>
    public string TypeName { get; } = original.GetType().Name;

    /// <summary>The whole text, as <see cref="Exception.ToString"/> of the original gives it (the console providers write this).</summary>
    public override string ToString() => _text;
}
