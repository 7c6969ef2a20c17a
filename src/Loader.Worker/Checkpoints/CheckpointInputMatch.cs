using Loader.Worker.Inputs;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// Whether a checkpoint belongs to this input and these settings, before any record is read. A checkpoint that
/// fingerprints the records it settled (version 3 on) is tied to the input's parts by name and size: a part rewritten in
/// place (a new ETag or write time, as a copy or a <c>touch</c> gives it) is not refused, since the fingerprint checked as
/// the records are read again decides. An older checkpoint is tied as it was: by the input's size and the hash of its
/// first and last MiB, or its blobs' ETags. Either way the damaged part a stopped load asked to replace may differ.
/// </summary>
internal static class CheckpointInputMatch
{
    /// <summary>Why <paramref name="checkpoint"/> does not belong to this input and these settings, naming what differs; null when it does.</summary>
    public static string? Mismatch(Checkpoint checkpoint, InputSource source, InputIdentity input, IReadOnlyList<InputPartState> parts, IReadOnlyDictionary<string, string> settings) =>
        checkpoint.Version >= Checkpoint.FingerprintVersion
            ? ProvenMismatch(checkpoint, input, parts, settings)
            : LegacyMismatch(checkpoint, source, input, settings);

    /// <summary>The parts rewritten in place since the checkpoint was written (but a damaged part replaced), named with what changed.</summary>
    public static List<string> Rewritten(Checkpoint checkpoint, IReadOnlyList<InputPartState> parts) =>
        [.. checkpoint.Parts.Zip(parts)
            .Where(pair => pair.First.Name == pair.Second.Name && pair.First.Name != checkpoint.Damage?.Part && pair.Second.RewrittenSince(pair.First))
            .Select(pair => pair.Second.Modified is { } modified && pair.First.Modified is { } earlier
                ? $"'{pair.Second.Name}' (written {earlier:u}, now {modified:u})"
                : $"'{pair.Second.Name}' (ETag {pair.First.ETag}, now {pair.Second.ETag})")];

    /// <summary>Whether the part a damaged input stopped the earlier run at was replaced since (as a repaired file is).</summary>
    public static bool Replaced(Checkpoint checkpoint, InputIdentity input, IReadOnlyList<InputPartState> parts, string damaged) =>
        checkpoint.Version < Checkpoint.FingerprintVersion
            ? checkpoint.Input != input
            : checkpoint.Parts.FirstOrDefault(part => part.Name == damaged) is { } was
                && parts.FirstOrDefault(part => part.Name == damaged) is { } now
                && (was.Length != now.Length || now.RewrittenSince(was));

    /// <summary>
    /// Why a checkpoint that fingerprints what it settled does not belong to this load: other parts (by name and order),
    /// a part of another size (but the damaged part a stopped load asked to replace), or other settings. A part
    /// rewritten in place (a new ETag or write time) is not refused: the fingerprint decides.
    /// </summary>
    private static string? ProvenMismatch(Checkpoint checkpoint, InputIdentity input, IReadOnlyList<InputPartState> parts, IReadOnlyDictionary<string, string> settings)
    {
        var recorded = checkpoint.Parts;
        var replaceable = checkpoint.Damage?.Part;
        if (checkpoint.Input.Name != input.Name)
        {
            return $"it was written for input '{checkpoint.Input.Name}' of {checkpoint.Input.Length:N0} bytes, this input is '{input.Name}' of {input.Length:N0} bytes";
        }

        if (recorded.Count == 1 && parts.Count == 1)
        {
            if (recorded[0].Name != parts[0].Name || (recorded[0].Length != parts[0].Length && recorded[0].Name != replaceable))
            {
                return $"it was written for input '{checkpoint.Input.Name}' of {recorded[0].Length:N0} bytes, this input is '{input.Name}' of {parts[0].Length:N0} bytes";
            }
        }
        else if (!recorded.Select(part => part.Name).SequenceEqual(parts.Select(part => part.Name)))
        {
            return $"it was written for input '{checkpoint.Input.Name}' of {recorded.Count:N0} parts ({Names(recorded)}), this input is '{input.Name}' of {parts.Count:N0} parts ({Names(parts)})";
        }
        else if (recorded.Zip(parts).FirstOrDefault(pair => pair.First.Length != pair.Second.Length && pair.First.Name != replaceable) is ({ } was, { } now))
        {
            return $"part '{now.Name}' of input '{input.Name}' was {was.Length:N0} bytes when it was written, it is {now.Length:N0} bytes now";
        }

        return LoadIdentity.SettingsMismatch(checkpoint.Settings, settings);
    }

    /// <summary>A checkpoint of version 1 or 2: tied to the input by its size and the hash of its first and last MiB (or its blobs' ETags).</summary>
    private static string? LegacyMismatch(Checkpoint checkpoint, InputSource source, InputIdentity input, IReadOnlyDictionary<string, string> settings)
    {
        // After a damaged part stopped the earlier run, that part may have changed (it was repaired); nothing else may.
        var repaired = checkpoint.Input != input && IsRepairOf(checkpoint, source, input);
        return LoadIdentity.Mismatch(repaired ? checkpoint with { Input = input } : checkpoint, input, settings);
    }

    private static string Names(IReadOnlyList<InputPartState> parts) =>
        parts.Count <= 3 ? string.Join(", ", parts.Select(part => part.Name)) : $"{string.Join(", ", parts.Take(3).Select(part => part.Name))}, ...";

    /// <summary>
    /// Whether the checkpoint was written by a load that stopped at a damaged compressed part, and this input is the same
    /// but for that part (replaced, as a repaired or downloaded-again file is).
    /// </summary>
    private static bool IsRepairOf(Checkpoint checkpoint, InputSource source, InputIdentity input) =>
        checkpoint.Damage is { } damage
        && checkpoint.Input.Name == input.Name
        && source.Parts.Any(part => part.Name == damage.Part)
        && source.IdentifyAllBut(damage.Part) == damage.Rest;
}
