using Loader.Worker.Inputs;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// One part of the input (a file, a blob) as a checkpoint records it: what tells, without reading it, that the part was
/// replaced or rewritten. A size that differs refuses the checkpoint; a new ETag or modification time alone does not (a
/// copy or a <c>touch</c> keeps the content): the fingerprint of the records a restart skips decides.
/// </summary>
/// <param name="Name">The part's name (a file's, or a blob's path in its container).</param>
/// <param name="Length">Its size as stored.</param>
/// <param name="ETag">A blob's ETag (and, for a range shard, the range).</param>
/// <param name="Modified">A file's last write time.</param>
internal sealed record InputPartState(string Name, long Length, string? ETag, DateTimeOffset? Modified)
{
    /// <summary>The parts of <paramref name="source"/>, in the order they are read.</summary>
    public static IReadOnlyList<InputPartState> Of(InputSource source) =>
        [.. source.Parts.Select(part => new InputPartState(part.Name, part.Length, part.Version, part.LastModified))];

    /// <summary>Whether the part was rewritten (a new ETag or write time) since <paramref name="earlier"/> was recorded.</summary>
    public bool RewrittenSince(InputPartState earlier) => ETag != earlier.ETag || Modified != earlier.Modified;
}
