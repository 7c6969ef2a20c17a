namespace Loader.Worker.Shards;

/// <summary>How a verb of a sharded load ended: the process's exit code and the summary printed for the user.</summary>
public sealed record CommandResult(int ExitCode, string Summary);
