namespace Loader.Worker.Tests.Infrastructure;

/// <summary>A scratch directory for one test, removed afterwards.</summary>
public sealed class TestDirectory : IDisposable
{
    public TestDirectory()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "loader-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public string File(string name) => System.IO.Path.Combine(Path, name);

    /// <summary>Writes a CSV exactly as given (line endings included) and returns its path.</summary>
    public string WriteCsv(string name, string content)
    {
        var path = File(name);
        System.IO.File.WriteAllText(path, content, new System.Text.UTF8Encoding(false));
        return path;
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A child process may still hold a file; the temp folder is cleaned eventually.
        }
    }
}
