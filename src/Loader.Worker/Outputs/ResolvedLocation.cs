using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Outputs;

/// <summary>
/// Where a location setting points, resolved so that two settings naming one place compare equal however they spell it.
/// A local path is made full and every symbolic link on it followed, a linked folder as much as a linked file (the part
/// that does not exist yet resolves through its parent), and compared as the file system does (case-sensitive on Linux).
/// A blob URL is compared by account (host and port, the scheme and the host's case aside; every loopback name alike),
/// container and decoded path; a prefix (a folder) holds every blob whose name starts with it.
/// </summary>
/// <param name="Scope">Local files, or one account's container: locations in different scopes never meet.</param>
/// <param name="Path">The resolved path: a local full path, or the blob's name in its container (a prefix without its <c>*</c>).</param>
/// <param name="IsFolder">A folder or prefix, which holds what lies under it.</param>
internal sealed record ResolvedLocation(string Scope, string Path, bool IsFolder)
{
    private const string LocalScope = "file";
    private const int MaxLinks = 40; // as Linux's own limit of links followed in one lookup

    private static readonly StringComparison s_localComparison =
        OperatingSystem.IsWindows() || OperatingSystem.IsMacOS() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;

    private StringComparison Comparison => Scope == LocalScope ? s_localComparison : StringComparison.Ordinal;

    /// <summary>A local path, which a message shows resolved when links made it differ from the setting.</summary>
    public bool IsLocal => Scope == LocalScope;

    /// <summary>The location <paramref name="setting"/> names; null when it is not one (an invalid URL: other checks say so).</summary>
    /// <param name="setting">A local path or a blob URL.</param>
    /// <param name="folder">Whether the setting names a folder (a blob prefix always does).</param>
    public static ResolvedLocation? Of(string setting, bool folder = false)
    {
        if (!BlobClientFactory.IsUrl(setting))
        {
            var path = Resolve(setting);
            return new ResolvedLocation(LocalScope, folder ? System.IO.Path.TrimEndingDirectorySeparator(path) + System.IO.Path.DirectorySeparatorChar : path, folder);
        }

        if (!BlobAddress.TryParse(setting, out var address, out _))
        {
            return null;
        }

        var endpoint = address.AccountEndpoint;
        var host = endpoint.IsLoopback ? "loopback" : endpoint.Host.ToLowerInvariant();
        var port = endpoint.IsDefaultPort ? "" : $":{endpoint.Port}";
        var scope = $"blob {host}{port}{endpoint.AbsolutePath.TrimEnd('/').ToLowerInvariant()}/{address.Container.ToLowerInvariant()}";
        return new ResolvedLocation(scope, address.Prefix, folder || address.IsPrefix);
    }

    /// <summary>Both name one place: one file or blob, or one folder.</summary>
    public bool IsSameAs(ResolvedLocation other) =>
        Scope == other.Scope && IsFolder == other.IsFolder && string.Equals(Path, other.Path, Comparison);

    /// <summary>This lies under <paramref name="folder"/> (a folder inside it, or one equal to it, included).</summary>
    public bool IsInside(ResolvedLocation folder) =>
        folder.IsFolder && Scope == folder.Scope && Path.StartsWith(folder.Path, Comparison);

    /// <summary>
    /// A local path made full, each symbolic link on it followed, as the operating system would walk it: a <c>..</c> after a
    /// link goes up from where the link leads. The first part that does not exist ends the walk; the rest is kept as written.
    /// </summary>
    private static string Resolve(string path)
    {
        var absolute = System.IO.Path.IsPathFullyQualified(path) ? path : System.IO.Path.Combine(Directory.GetCurrentDirectory(), path);
        var links = 0;
        return Walk(absolute, ref links);
    }

    private static string Walk(string absolute, ref int links)
    {
        var root = System.IO.Path.GetPathRoot(absolute)!;
        var current = root;
        var segments = absolute[root.Length..].Split([System.IO.Path.DirectorySeparatorChar, System.IO.Path.AltDirectorySeparatorChar], StringSplitOptions.RemoveEmptyEntries);
        var exists = true;
        foreach (var segment in segments)
        {
            if (segment == ".")
            {
                continue;
            }

            if (segment == "..")
            {
                current = System.IO.Path.GetDirectoryName(current) ?? root;
                continue;
            }

            var next = System.IO.Path.Combine(current, segment);
            if (exists && links < MaxLinks && LinkTarget(next) is { } target)
            {
                links++;
                current = Walk(target, ref links); // the target's own folders may be links too
                continue;
            }

            exists = exists && System.IO.Path.Exists(next);
            current = next;
        }

        return current;
    }

    /// <summary>Where the link at <paramref name="path"/> leads, as a full path; null when it is no link, or a loop of links.</summary>
    private static string? LinkTarget(string path)
    {
        try
        {
            var info = new FileInfo(path);
            return info.LinkTarget is null ? null : info.ResolveLinkTarget(returnFinalTarget: true)?.FullName;
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }
}
