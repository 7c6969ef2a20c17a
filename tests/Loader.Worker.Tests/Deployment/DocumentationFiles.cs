using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Deployment;

/// <summary>The documentation pages the doc checks read: the README, every page under docs/, and bench/README.md.</summary>
internal static class DocumentationFiles
{
    /// <summary>Each page's path from the repository's root, with forward slashes.</summary>
    public static IReadOnlyList<string> Pages() => ["README.md", .. Find("docs", "*.md"), "bench/README.md"];

    /// <summary>The files of <paramref name="folder"/> (not below it) matching <paramref name="pattern"/>, from the root, in name order.</summary>
    public static IEnumerable<string> Find(string folder, string pattern) =>
        Directory.GetFiles(Path.Combine(RepositoryPaths.Root, folder), pattern)
            .Select(path => Path.GetRelativePath(RepositoryPaths.Root, path).Replace('\\', '/'))
            .Order(StringComparer.Ordinal);
}
