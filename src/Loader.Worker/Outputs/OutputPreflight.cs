using System.Diagnostics;
using Loader.Worker.Configuration;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Outputs;

/// <summary>
/// Proves every configured output writable before the first row is read: a ten-hour load must not learn at its end
/// that its report has nowhere to go, nor run the whole time without the checkpoint it was configured with.
/// </summary>
internal sealed partial class OutputPreflight(OutputFiles outputs, ILogger<OutputPreflight> logger)
{
    /// <summary>The outputs the settings configure, by key: a dry run keeps no checkpoint; the HTML report goes beside the JSON report unless it has its own path.</summary>
    public static IEnumerable<(string Key, string Setting)> Configured(LoaderOptions settings)
    {
        (string, string?)[] all =
        [
            ("Loader:ReportPath", settings.ReportPath),
            ("Loader:HtmlReportPath", HtmlReportLocation.Setting(settings)),
            ("Loader:RejectsPath", settings.RejectsPath),
            ("Loader:CheckpointPath", settings.DryRun ? null : settings.CheckpointPath),
        ];
        return all.Where(output => !string.IsNullOrWhiteSpace(output.Item2)).Select(output => (output.Item1, output.Item2!));
    }

    /// <summary>
    /// Checks each configured output and says, for each, whether it can be written and what it took. Outputs at the input's
    /// place or at one another's (<see cref="OutputLocationCheck"/>) are said instead, and nothing is probed: a probe is a write.
    /// </summary>
    public async Task<IReadOnlyList<PreflightCheck>> CheckAsync(LoaderOptions settings, CancellationToken cancellationToken)
    {
        if (OutputLocationCheck.OfLoad(settings) is { Count: > 0 } conflicts)
        {
            foreach (var conflict in conflicts)
            {
                LogRefused(conflict.Setting, conflict.Location, conflict.Detail);
            }

            return conflicts;
        }

        var checks = new List<PreflightCheck>();
        foreach (var (key, setting) in Configured(settings))
        {
            var clock = Stopwatch.StartNew();
            PreflightCheck check;
            try
            {
                var file = outputs.For(setting)!;
                var done = await file.ProveWritableAsync(cancellationToken).ConfigureAwait(false);
                check = PreflightCheck.Passed(key, file.Display, done is null ? "writable" : $"writable ({done})");
            }
            catch (Exception exception) when (exception is FormatException or InvalidOperationException)
            {
                check = PreflightCheck.Failed(key, OutputFiles.Display(setting) ?? "", exception.Message, PreflightFailure.InvalidSetting);
            }
            catch (OutputNotWritableException exception)
            {
                check = PreflightCheck.Failed(key, OutputFiles.Display(setting) ?? "", exception.Message, PreflightFailure.Refused);
            }

            LogChecked(key, check.Location, check.Detail, clock.ElapsedMilliseconds);
            checks.Add(check);
        }

        return checks;
    }

    /// <summary>Every configured output proven writable, before the first row is read.</summary>
    /// <exception cref="OutputRefusedException">The first output that is not; the message names its setting and says nothing was loaded.</exception>
    public async Task EnsureWritableAsync(LoaderOptions settings, CancellationToken cancellationToken)
    {
        var checks = await CheckAsync(settings, cancellationToken).ConfigureAwait(false);
        if (checks.FirstOrDefault(check => !check.Ok) is { } failed)
        {
            throw new OutputRefusedException(failed.Failure, $"{failed.Refusal}. Nothing was loaded.");
        }
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "{Key} {Location}: {Detail}; nothing is written")]
    private partial void LogRefused(string key, string location, string detail);

    [LoggerMessage(Level = LogLevel.Information, Message = "{Key} {Location}: {Detail} ({Milliseconds} ms)")]
    private partial void LogChecked(string key, string location, string detail, long milliseconds);
}

/// <summary>One thing checked before a load: a setting, where it points, whether it passed, and why not.</summary>
internal sealed record PreflightCheck(string Setting, string Location, PreflightFailure Failure, string Detail)
{
    public bool Ok => Failure == PreflightFailure.None;

    public static PreflightCheck Passed(string setting, string location, string detail) => new(setting, location, PreflightFailure.None, detail);

    public static PreflightCheck Failed(string setting, string location, string detail, PreflightFailure failure) => new(setting, location, failure, detail);

    /// <summary>Why the load cannot go on, as a sentence naming the setting and the place.</summary>
    public string Refusal => $"{Setting}: cannot write '{Location}': {Detail}";

    public override string ToString() => $"{(Ok ? "OK  " : "FAIL")} {Setting}{(Location.Length > 0 ? " " + Location : "")}: {Detail}";
}

/// <summary>Why a check failed: a setting that cannot be right, a place that cannot be reached or refuses the credential, or an error no check foresaw.</summary>
internal enum PreflightFailure
{
    None,
    InvalidSetting,
    Refused,
    Unexpected,
}
