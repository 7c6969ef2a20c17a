using Loader.Worker.Inputs;

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
    /// settings, naming what differs; null when it does. <paramref name="since"/> says when it was recorded.
    /// </summary>
    public static string? Mismatch(InputIdentity recordedInput, IReadOnlyDictionary<string, string> recordedSettings, InputIdentity input, IReadOnlyDictionary<string, string> settings, string since)
    {
        if (recordedInput != input)
        {
            return recordedInput.Length != input.Length || recordedInput.Name != input.Name
                ? $"it was written for input '{recordedInput.Name}' of {recordedInput.Length:N0} bytes, this input is '{input.Name}' of {input.Length:N0} bytes"
                : $"input '{input.Name}' has changed since {since}";
        }

        var differing = settings.Keys.Union(recordedSettings.Keys)
            .Where(key => settings.GetValueOrDefault(key) != recordedSettings.GetValueOrDefault(key))
            .Order(StringComparer.Ordinal)
            .Select(key => $"{key} was '{recordedSettings.GetValueOrDefault(key)}', is '{settings.GetValueOrDefault(key)}'")
            .ToList();
        return differing.Count == 0 ? null : "the settings differ: " + string.Join("; ", differing);
    }
}
