namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// Numbers a test measured that a reader of the test run should see (what a restart wrote against a full load):
/// written to the test's output and appended to .run/test-measurements.log, which test.sh prints at the end —
/// dotnet test shows a passing test's output only at its most verbose.
/// </summary>
public static class Measurements
{
    private static readonly Lock s_lock = new();

    public static void Record(string line)
    {
        TestContext.Current.TestOutputHelper?.WriteLine(line);
        var log = Path.Combine(RepositoryPaths.Root, ".run", "test-measurements.log");
        lock (s_lock)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(log)!);
            File.AppendAllText(log, $"{TestContext.Current.TestMethod?.MethodName}: {line}{Environment.NewLine}");
        }
    }
}
