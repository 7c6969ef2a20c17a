using Loader.Worker.Inputs;
using Loader.Worker.Security;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// Where a load stood: every well-formed record before <see cref="NextRecord"/> is settled, and of those after it up to
/// <see cref="ReadUpTo"/>, all but the <see cref="Pending"/> ones. Written every second or so and at the end; read at
/// start to resume. Tied to its input and settings by <see cref="Input"/>, <see cref="Parts"/> and <see cref="Settings"/>,
/// so it is never applied to another load, and to the records it settled by <see cref="Prefix"/>, which a restart checks
/// as it reads past them. Version 1 (no <see cref="ReadUpTo"/>) is read as a watermark alone; versions 1 and 2 (no
/// <see cref="Prefix"/>) are resumed as before, without that proof.
/// </summary>
internal sealed record Checkpoint
{
    public const int CurrentVersion = 3;

    /// <summary>The first version that records <see cref="Parts"/> and <see cref="Prefix"/>.</summary>
    public const int FingerprintVersion = 3;

    public int Version { get; init; } = CurrentVersion;

    /// <summary>The first well-formed record (1-based) not known to be settled: a restart skips the records before it.</summary>
    public required long NextRecord { get; init; }

    /// <summary>The highest record that had been read and passed into batches (0: none recorded, as in version 1).</summary>
    public long ReadUpTo { get; init; }

    /// <summary>The line on which <see cref="ReadUpTo"/> starts.</summary>
    public long ReadUpToLine { get; init; }

    /// <summary>Records from <see cref="NextRecord"/> to <see cref="ReadUpTo"/> still in batches, as [first, last] ranges: a restart sends only these of them.</summary>
    public IReadOnlyList<long[]> Pending { get; init; } = [];

    /// <summary>The highest record sent to the service: rows a restart meets again up to here may already be stored.</summary>
    public required long HighestSent { get; init; }

    /// <summary>Whether the load reached the end of its input with nothing failed: a next run starts a new load.</summary>
    public required bool Completed { get; init; }

    public required DateTimeOffset UpdatedAt { get; init; }

    /// <summary>Set when the load stopped at a damaged compressed part: a restart accepts the input with that part replaced.</summary>
    public InputDamage? Damage { get; init; }

    public required InputIdentity Input { get; init; }

    /// <summary>The input's parts when the checkpoint was written: names, sizes, ETags or write times (version 3 on).</summary>
    public IReadOnlyList<InputPartState> Parts { get; init; } = [];

    /// <summary>
    /// The fingerprint of the records read, at points up to <see cref="ReadUpTo"/> (the last one there; when nothing was
    /// read after a resume, at <see cref="NextRecord"/> - 1): a few spread before <see cref="NextRecord"/>, and every
    /// chunk's from the one before it on (version 3 on).
    /// </summary>
    public IReadOnlyList<PrefixMark> Prefix { get; init; } = [];

    /// <summary>The settings that decide what is written where, by key.</summary>
    public required IReadOnlyDictionary<string, string> Settings { get; init; }
}

/// <summary>
/// Where a load found its input damaged (a compressed part cut short or corrupt) and stopped.
/// </summary>
/// <param name="Part">The part, as the input names it: a restart finds the replaced part by it.</param>
/// <param name="Offset">The compressed byte at or before which the damage lies.</param>
/// <param name="Reason">What was found, as the load reported it.</param>
/// <param name="Rest">What identifies the rest of the input (<see cref="Inputs.InputSource.IdentifyAllBut"/>): it must not change.</param>
internal sealed record InputDamage([property: Unredacted] string Part, long Offset, string Reason, string Rest);
