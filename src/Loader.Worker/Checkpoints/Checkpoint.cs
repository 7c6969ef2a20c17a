namespace Loader.Worker.Checkpoints;

/// <summary>
/// Where a load stood: every well-formed record before <see cref="NextRecord"/> is settled. Written every few
/// seconds and at the end; read at start to resume. Tied to its input and settings by <see cref="Input"/> and
/// <see cref="Settings"/>, so it is never applied to another load.
/// </summary>
public sealed record Checkpoint
{
    public const int CurrentVersion = 1;

    public int Version { get; init; } = CurrentVersion;

    /// <summary>The first well-formed record (1-based) not known to be settled: a restart skips the records before it.</summary>
    public required long NextRecord { get; init; }

    /// <summary>The highest record sent to the service: rows a restart meets again up to here may already be stored.</summary>
    public required long HighestSent { get; init; }

    /// <summary>Whether the load reached the end of its input with nothing failed: a next run starts a new load.</summary>
    public required bool Completed { get; init; }

    public required DateTimeOffset UpdatedAt { get; init; }

    public required InputIdentity Input { get; init; }

    /// <summary>The settings that decide what is written where, by key.</summary>
    public required IReadOnlyDictionary<string, string> Settings { get; init; }
}

/// <summary>What identifies an input without reading it whole: its name, size and a fingerprint (see <see cref="Inputs.InputSource.Identify"/>).</summary>
public sealed record InputIdentity(string Name, long Length, string Fingerprint);
