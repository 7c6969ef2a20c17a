namespace Loader.Benchmarks;

/// <summary>Command lines as a POSIX shell would need them typed, so the printed commands can be pasted back.</summary>
internal static class ShellText
{
    private const string Plain = "-_./:=,@+%";

    public static string Join(IEnumerable<string> arguments) => string.Join(' ', arguments.Select(Quote));

    /// <summary>How this process was started: <c>dotnet Loader.Benchmarks.dll ...</c> when the host ran it.</summary>
    public static string CurrentCommandLine()
    {
        var arguments = Environment.GetCommandLineArgs();
        return arguments[0].EndsWith(".dll", StringComparison.OrdinalIgnoreCase) ? Join(["dotnet", .. arguments]) : Join(arguments);
    }

    private static string Quote(string argument) =>
        argument.Length > 0 && argument.All(c => char.IsAsciiLetterOrDigit(c) || Plain.Contains(c, StringComparison.Ordinal))
            ? argument
            : "'" + argument.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
