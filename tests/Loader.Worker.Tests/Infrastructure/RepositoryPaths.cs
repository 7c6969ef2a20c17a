namespace Loader.Worker.Tests.Infrastructure;

/// <summary>Finds the repository from the test binaries, for the tools and data the tests use.</summary>
public static class RepositoryPaths
{
    public static string Root { get; } = FindRoot();

    public static string Tools => Path.Combine(Root, "tools");

    public static string Data => Path.Combine(Root, "data");

    private static string FindRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "BulkLoader.slnx")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("BulkLoader.slnx not found above " + AppContext.BaseDirectory);
    }
}
