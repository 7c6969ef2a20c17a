using System.Text.Json;
using Loader.Worker.Security;

namespace Loader.Worker.Outputs;

/// <summary>
/// Where a small output lives — the report, a checkpoint, the published rejects: a local file, or a blob when the
/// setting is a blob URL (a Container Apps job keeps nothing on its own disk). Replaced whole: a reader never
/// sees half of one.
/// </summary>
/// <param name="redaction">What the loader's own words written here go through (<see cref="WriteJsonAsync"/>).</param>
internal abstract class OutputFile(Redaction redaction)
{
    /// <summary>How logs and messages name it: a path, or a URL without its signature.</summary>
    public abstract string Display { get; }

    /// <summary>Its content, or null when it does not exist.</summary>
    public abstract Task<BinaryData?> ReadAsync(CancellationToken cancellationToken);

    /// <summary>Replaces its content with <paramref name="content"/> as it is: for the input's own text (the rejects).</summary>
    public abstract Task WriteAsync(BinaryData content, string contentType, CancellationToken cancellationToken);

    /// <summary>Replaces its content with <paramref name="value"/> as JSON, every string in it redacted: a report, a checkpoint.</summary>
    public Task WriteJsonAsync<T>(T value, JsonSerializerOptions options, CancellationToken cancellationToken) =>
        WriteAsync(RedactedJson.Serialize(value, options, redaction), "application/json", cancellationToken);

    /// <summary>A copy of <paramref name="value"/> with every string in it redacted, for a writer that encodes it itself (the HTML report).</summary>
    public T Redacted<T>(T value, JsonSerializerOptions options) => RedactedJson.Copy(value, options, redaction);

    /// <summary>
    /// Proves a write would land, before the load starts rather than after it: writes and deletes a small probe beside
    /// the output, creating the folder or container first when it is missing and the credential may. Returns what it
    /// had to do (null: nothing); throws <see cref="OutputNotWritableException"/> saying why it cannot write.
    /// </summary>
    public abstract Task<string?> ProveWritableAsync(CancellationToken cancellationToken);

    public override string ToString() => Display;
}
