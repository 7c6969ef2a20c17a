using Loader.Worker.Outcomes;
using Loader.Worker.Security;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Hosting;

/// <summary>
/// What the process says and returns when the host cannot start a load: settings that do not validate, or a value
/// the binder cannot convert, are listed on standard error one per line under one heading (exit 2); anything else
/// is one line naming the cause (exit 10). <c>Program.cs</c> ends here, and so does the tests' in-process runner for
/// settings, so the exit code and the listing a test sees are the program's own.
/// </summary>
internal static class StartupFailure
{
    public const string InvalidSettingsHeading = "Invalid settings; nothing was loaded:";

    /// <summary>The line after the listing of invalid settings.</summary>
    public const string HelpHint = "(--help lists every setting with its switch, default and meaning)";

    /// <summary>Whether <paramref name="exception"/> is a setting the user gave wrong, rather than a failure of the program.</summary>
    public static bool IsInvalidSettings(Exception exception) =>
        exception is OptionsValidationException || IsUnconvertibleValue(exception);

    /// <summary>
    /// Writes why the load could not start to <paramref name="error"/>, through <paramref name="redaction"/> (a value the
    /// binder could not convert is quoted, and may be a secret given to the wrong setting), and returns the exit code.
    /// </summary>
    public static async Task<int> ReportAsync(Exception exception, TextWriter error, Redaction redaction)
    {
        if (exception is OptionsValidationException invalid)
        {
            await error.WriteLineAsync(InvalidSettingsHeading).ConfigureAwait(false);
            foreach (var failure in invalid.Failures)
            {
                await error.WriteLineAsync("  - " + redaction.Redact(failure)).ConfigureAwait(false);
            }

            await error.WriteLineAsync(HelpHint).ConfigureAwait(false);
            return ExitCodes.InvalidConfiguration;
        }

        if (IsUnconvertibleValue(exception))
        {
            // The binder names the key and the value: "Failed to convert configuration value 'x' at 'Loader:BatchSize' to type 'System.Int32'."
            await error.WriteLineAsync(InvalidSettingsHeading).ConfigureAwait(false);
            await error.WriteLineAsync("  - " + redaction.Redact(exception.Message)).ConfigureAwait(false);
            await error.WriteLineAsync(HelpHint).ConfigureAwait(false);
            return ExitCodes.InvalidConfiguration;
        }

        // Start-up failed before a load could report anything (the backend's client could not be built, say).
        await error.WriteLineAsync(redaction.Redact($"The loader could not start; nothing was loaded: {exception.GetBaseException().Message}")).ConfigureAwait(false);
        return ExitCodes.InternalError;
    }

    private static bool IsUnconvertibleValue(Exception exception) =>
        exception is InvalidOperationException && exception.Message.StartsWith("Failed to convert configuration value", StringComparison.Ordinal);
}
