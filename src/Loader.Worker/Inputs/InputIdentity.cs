namespace Loader.Worker.Inputs;

/// <summary>
/// What identifies an input without reading it whole: its name, size and a fingerprint (see <see cref="InputSource.Identify"/>).
/// A checkpoint and a sharded load's manifest record it, so a changed input is never resumed or loaded in part.
/// </summary>
internal sealed record InputIdentity(string Name, long Length, string Fingerprint);
