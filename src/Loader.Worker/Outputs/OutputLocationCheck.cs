using Loader.Worker.Configuration;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Outputs;

/// <summary>
/// Keeps the outputs off the input and off each other, before anything is written (a probe included): an output at the
/// input's place would destroy it, two outputs at one place would replace each other, and an output inside the input's
/// blob prefix would be read as data by a later run or shard. Every location is resolved first
/// (<see cref="ResolvedLocation"/>), so a symbolic link or another spelling of one URL hides nothing.
/// </summary>
internal static class OutputLocationCheck
{
    private const string InputKey = "Loader:Input";
    private const string It = "it";

    /// <summary>
    /// A load's locations: <c>Loader:Input</c>, and the report, HTML report (beside the JSON one by default), rejects and
    /// checkpoint it writes, with the temporary copy a local report or checkpoint is written to before it is moved over.
    /// </summary>
    /// <returns>One failed check per conflict, on the setting that must change, naming the other; empty when there is none.</returns>
    public static IReadOnlyList<PreflightCheck> OfLoad(LoaderOptions settings)
    {
        var outputs = new List<Place>();
        foreach (var (key, setting) in OutputPreflight.Configured(settings))
        {
            var derived = key == "Loader:HtmlReportPath" && string.IsNullOrWhiteSpace(settings.HtmlReportPath);
            AddOutput(outputs, key, setting, derived ? "it (where the HTML report goes unless Loader:HtmlReportPath says otherwise: beside Loader:ReportPath)" : It);

            // The rejects file is written in place; the others whole, beside themselves first (LocalOutputFile).
            if (key != "Loader:RejectsPath")
            {
                AddTemporaryCopy(outputs, key, setting);
            }
        }

        return Compare(Input(settings), outputs);
    }

    /// <summary>
    /// A sharded load's locations: <c>Loader:Input</c>, and the state folder (<c>Loader:Shards:State</c>) every verb writes
    /// in; <c>status</c> writes <c>Loader:ReportPath</c> too.
    /// </summary>
    /// <returns>As <see cref="OfLoad"/>.</returns>
    public static IReadOnlyList<PreflightCheck> OfShardedLoad(LoaderOptions settings)
    {
        var outputs = new List<Place>();
        if (!string.IsNullOrWhiteSpace(settings.Shards.State))
        {
            AddOutput(outputs, "Loader:Shards:State", settings.Shards.State, It, folder: true);
        }

        if (settings.Command == LoaderCommand.Status && !string.IsNullOrWhiteSpace(settings.ReportPath))
        {
            AddOutput(outputs, "Loader:ReportPath", settings.ReportPath, It);
            AddTemporaryCopy(outputs, "Loader:ReportPath", settings.ReportPath);
        }

        return Compare(Input(settings), outputs);
    }

    /// <summary>
    /// <c>verify</c>'s locations: <c>Loader:Input</c>, the load's outputs (which verify reads, the rejects, or leaves
    /// alone), and the reports verify writes (<see cref="VerifyReportLocation"/>), which must be none of them.
    /// </summary>
    /// <returns>As <see cref="OfLoad"/>.</returns>
    public static IReadOnlyList<PreflightCheck> OfVerify(LoaderOptions settings)
    {
        var outputs = new List<Place>();
        foreach (var (key, setting) in OutputPreflight.Configured(settings))
        {
            AddOutput(outputs, key, setting, It);
        }

        foreach (var (key, setting) in VerifyReportLocation.Configured(settings))
        {
            AddOutput(outputs, key, setting, It);
            AddTemporaryCopy(outputs, key, setting);
        }

        return Compare(Input(settings), outputs);
    }

    /// <summary>Conflicts as a message, one sentence each naming both settings, then <paramref name="consequence"/>.</summary>
    public static string Describe(IEnumerable<PreflightCheck> conflicts, string consequence) =>
        string.Concat(conflicts.Select(conflict => conflict.Refusal + "." + Environment.NewLine)) + consequence;

    private static Place? Input(LoaderOptions settings) =>
        string.IsNullOrWhiteSpace(settings.Input) || ResolvedLocation.Of(settings.Input) is not { } where
            ? null
            : new Place(InputKey, settings.Input, settings.Input, where, "the input", $"the input, {InputKey} '{OutputFiles.Display(settings.Input)}'");

    private static void AddOutput(List<Place> outputs, string key, string setting, string subject, bool folder = false)
    {
        if (ResolvedLocation.Of(setting, folder) is { } where)
        {
            outputs.Add(new Place(key, setting, setting, where, subject, $"{key} '{OutputFiles.Display(setting)}'"));
        }
    }

    private static void AddTemporaryCopy(List<Place> outputs, string key, string setting)
    {
        if (!BlobClientFactory.IsUrl(setting) && ResolvedLocation.Of(LocalOutputFile.TemporaryOf(setting)) is { } where)
        {
            var temporary = LocalOutputFile.TemporaryOf(setting);
            outputs.Add(new Place(key, setting, temporary, where, $"its temporary copy '{temporary}'", $"the temporary copy '{temporary}' of {key}"));
        }
    }

    private static List<PreflightCheck> Compare(Place? input, List<Place> outputs)
    {
        var conflicts = new List<PreflightCheck>();
        for (var i = 0; i < outputs.Count; i++)
        {
            var output = outputs[i];
            if (input is not null && AgainstInput(output, input) is { } inputConflict)
            {
                conflicts.Add(inputConflict);
            }

            for (var j = 0; j < i; j++)
            {
                if (outputs[j].Key != output.Key && AgainstOutput(output, outputs[j]) is { } outputConflict)
                {
                    conflicts.Add(outputConflict);
                }
            }
        }

        return conflicts;
    }

    private static PreflightCheck? AgainstInput(Place output, Place input) =>
        output.Where.IsInside(input.Where)
            ? Conflict(output, $"{output.Subject} is inside {input.Named}{Inside(output, input)}, which a later run or shard would read it from as data")
        : input.Where.IsInside(output.Where)
            ? Conflict(output, $"{input.Named}, is inside it{Inside(input, output)}, where the loader writes files of its own")
        : output.Where.IsSameAs(input.Where)
            ? Conflict(output, $"{output.Subject} is {input.Named}{Same(output, input)}: writing there would destroy it")
        : null;

    /// <summary>A conflict between two outputs, said on the one inside the other, or on the later of two at one place.</summary>
    private static PreflightCheck? AgainstOutput(Place later, Place earlier) =>
        later.Where.IsInside(earlier.Where)
            ? Conflict(later, $"{later.Subject} is inside {earlier.Named}{Inside(later, earlier)}, where the loader writes files of its own")
        : earlier.Where.IsInside(later.Where)
            ? Conflict(earlier, $"{earlier.Subject} is inside {later.Named}{Inside(earlier, later)}, where the loader writes files of its own")
        : later.Where.IsSameAs(earlier.Where)
            ? Conflict(later, $"{later.Subject} is also {earlier.Named}{Same(later, earlier)}: one would replace the other")
        : null;

    private static PreflightCheck Conflict(Place output, string detail) =>
        PreflightCheck.Failed(output.Key, OutputFiles.Display(output.Setting) ?? "", detail, PreflightFailure.InvalidSetting);

    /// <summary>Where two local paths lead, when the settings alone would not show that they meet (a link, another spelling).</summary>
    private static string Same(Place one, Place other) =>
        Shows(one, other) ? $" (both resolve to '{one.Where.Path}')" : "";

    private static string Inside(Place inner, Place outer) =>
        Shows(inner, outer) ? $" ('{inner.Where.Path}' is under '{outer.Where.Path}')" : "";

    private static bool Shows(Place one, Place other) =>
        one.Where.IsLocal && (one.Path != other.Path || one.Where.Path != Path.GetFullPath(one.Path) || other.Where.Path != Path.GetFullPath(other.Path));

    /// <summary>A location a setting names.</summary>
    /// <param name="Key">The setting.</param>
    /// <param name="Setting">Its value.</param>
    /// <param name="Path">The location itself: the value, or the temporary copy beside it.</param>
    /// <param name="Where">The location resolved.</param>
    /// <param name="Subject">How a message about this setting's conflict calls it.</param>
    /// <param name="Named">How a message about another setting's conflict names it.</param>
    private sealed record Place(string Key, string Setting, string Path, ResolvedLocation Where, string Subject, string Named);
}
