using Loader.Worker.Outcomes;

namespace Loader.Worker.Shards;

/// <summary>How a verb of a sharded load ended: what happened (the host makes it the process's exit code) and the summary printed for the user.</summary>
internal sealed record CommandResult(LoadOutcomeKind Outcome, string Summary);
