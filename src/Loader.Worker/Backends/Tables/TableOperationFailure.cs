namespace Loader.Worker.Backends.Tables;

/// <summary>An operation of a change set the service refused.</summary>
/// <param name="Status">The operation's HTTP status.</param>
/// <param name="Index">The operation's position in the change set, when the service named it.</param>
/// <param name="Code">The service's error code.</param>
/// <param name="Message">The first line of the service's message, without the index.</param>
internal sealed record TableOperationFailure(int Status, int? Index, string Code, string Message);
