namespace Loader.Worker.Outputs;

/// <summary>
/// Where a small output lives — the report, a checkpoint, the published rejects: a local file, or a blob when the
/// setting is a blob URL (a Container Apps job keeps nothing on its own disk). Replaced whole: a reader never
/// sees half of one.
/// </summary>
internal abstract class OutputFile
{
    /// <summary>How logs and messages name it: a path, or a URL without its signature.</summary>
    public abstract string Display { get; }

    /// <summary>Its content, or null when it does not exist.</summary>
    public abstract Task<BinaryData?> ReadAsync(CancellationToken cancellationToken);

    /// <summary>Replaces its content.</summary>
    public abstract Task WriteAsync(BinaryData content, string contentType, CancellationToken cancellationToken);

    /// <summary>
    /// Proves a write would land, before the load starts rather than after it: writes and deletes a small probe beside
    /// the output, creating the folder or container first when it is missing and the credential may. Returns what it
    /// had to do (null: nothing); throws <see cref="OutputNotWritableException"/> saying why it cannot write.
    /// </summary>
    public abstract Task<string?> ProveWritableAsync(CancellationToken cancellationToken);

    public override string ToString() => Display;
}
