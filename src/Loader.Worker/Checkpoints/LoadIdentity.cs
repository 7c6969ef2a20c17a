using Loader.Worker.Inputs;
using Loader.Worker.Security;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// What a checkpoint is tied to: the input (<see cref="InputSource.Identify"/>) and the settings that decide what is
/// written where (<see cref="Configuration.IdentifyingSettings"/>).
/// </summary>
internal static class LoadIdentity
{
    /// <summary>Why a checkpoint does not belong to this load, naming what differs; null when it does.</summary>
    public static string? Mismatch(Checkpoint checkpoint, InputIdentity input, IReadOnlyDictionary<string, string> settings) =>
        Mismatch(checkpoint.Input, checkpoint.Settings, input, settings, "the checkpoint was written");

    /// <summary>
    /// Why what was recorded (by a checkpoint, or a sharded load's manifest) does not belong to this input and these
    /// settings, naming what differs; null when it does. <paramref name="since"/> says when it was recorded. Both sides are
    /// compared as the rule of <see cref="Redaction"/> writes them: what is recorded went through it, and a checkpoint of an
    /// earlier version, written before it, still matches the load it belongs to.
    /// </summary>
    public static string? Mismatch(InputIdentity recordedInput, IReadOnlyDictionary<string, string> recordedSettings, InputIdentity input, IReadOnlyDictionary<string, string> settings, string since)
    {
        (recordedInput, input) = (AsWritten(recordedInput), AsWritten(input));
        if (recordedInput != input)
        {
            return recordedInput.Length != input.Length || recordedInput.Name != input.Name
                ? $"it was written for input '{recordedInput.Name}' of {recordedInput.Length:N0} bytes, this input is '{input.Name}' of {input.Length:N0} bytes"
                : $"input '{input.Name}' has changed since {since}";
        }

        return SettingsMismatch(recordedSettings, settings);
    }

    /// <summary>Which settings that decide what is written where differ from those recorded, each named; null when none does.</summary>
    public static string? SettingsMismatch(IReadOnlyDictionary<string, string> recordedSettings, IReadOnlyDictionary<string, string> settings)
    {
        var differing = settings.Keys.Union(recordedSettings.Keys)
            .Select(key => (Key: key, Was: AsWritten(recordedSettings.GetValueOrDefault(key)), Is: AsWritten(settings.GetValueOrDefault(key))))
            .Where(setting => setting.Was != setting.Is)
            .OrderBy(setting => setting.Key, StringComparer.Ordinal)
            .Select(setting => $"{setting.Key} was '{setting.Was}', is '{setting.Is}'")
            .ToList();
        return differing.Count == 0 ? null : "the settings differ: " + string.Join("; ", differing);
    }

    private static InputIdentity AsWritten(InputIdentity identity) =>
        identity with { Name = Redaction.Rule.Redact(identity.Name), Fingerprint = Redaction.Rule.Redact(identity.Fingerprint) };

    private static string? AsWritten(string? value) => value is null ? null : Redaction.Rule.Redact(value);
}
