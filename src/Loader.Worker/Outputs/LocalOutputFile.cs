namespace Loader.Worker.Outputs;

/// <summary>A file on a local or mounted disk, written beside itself and then moved over.</summary>
public sealed class LocalOutputFile(string path) : OutputFile
{
    public override string Display => path;

    public override async Task<BinaryData?> ReadAsync(CancellationToken cancellationToken) =>
        File.Exists(path) ? new BinaryData(await File.ReadAllBytesAsync(path, cancellationToken).ConfigureAwait(false)) : null;

    public override async Task WriteAsync(BinaryData content, string contentType, CancellationToken cancellationToken)
    {
        var directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (!string.IsNullOrEmpty(directory))
        {
            Directory.CreateDirectory(directory);
        }

        var temporary = path + ".tmp";
        await File.WriteAllBytesAsync(temporary, content.ToMemory(), cancellationToken).ConfigureAwait(false);
        File.Move(temporary, path, overwrite: true);
    }
}
