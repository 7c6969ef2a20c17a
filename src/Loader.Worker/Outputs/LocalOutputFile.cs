using Loader.Worker.Security;

namespace Loader.Worker.Outputs;

/// <summary>A file on a local or mounted disk, written beside itself and then moved over.</summary>
internal sealed class LocalOutputFile(string path, Redaction redaction) : OutputFile(redaction)
{
    /// <summary>A file whose JSON goes through the rule alone (no secret values known).</summary>
    public LocalOutputFile(string path)
        : this(path, Redaction.Rule)
    {
    }

    public override string Display => path;

    /// <summary>Where the content is written before it is moved over the file, so a reader never sees half of it.</summary>
    public static string TemporaryOf(string path) => path + ".tmp";

    public override async Task<BinaryData?> ReadAsync(CancellationToken cancellationToken) =>
        File.Exists(path) ? new BinaryData(await File.ReadAllBytesAsync(path, cancellationToken).ConfigureAwait(false)) : null;

    public override async Task<string?> ProveWritableAsync(CancellationToken cancellationToken)
    {
        var fullPath = Path.GetFullPath(path);
        if (Directory.Exists(fullPath))
        {
            throw new OutputNotWritableException($"'{path}' is a folder; the setting names a file");
        }

        var directory = Path.GetDirectoryName(fullPath)!;
        var created = !Directory.Exists(directory);
        var probe = Path.Combine(directory, $".{Path.GetFileName(fullPath)}.probe-{Guid.NewGuid():N}");
        try
        {
            Directory.CreateDirectory(directory);
            await File.WriteAllBytesAsync(probe, [], cancellationToken).ConfigureAwait(false);
            File.Delete(probe);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new OutputNotWritableException($"cannot write in '{directory}': {exception.Message}", exception);
        }

        return created ? $"folder '{directory}' created" : null;
    }

    public override async Task WriteAsync(BinaryData content, string contentType, CancellationToken cancellationToken)
    {
        var directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (!string.IsNullOrEmpty(directory))
        {
            Directory.CreateDirectory(directory);
        }

        var temporary = TemporaryOf(path);
        await File.WriteAllBytesAsync(temporary, content.ToMemory(), cancellationToken).ConfigureAwait(false);
        File.Move(temporary, path, overwrite: true);
    }
}
