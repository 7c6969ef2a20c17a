namespace Loader.Abstractions;

/// <summary>An operation of a batch the service refused.</summary>
/// <param name="Index">Position of the operation in <see cref="EntityBatch.Entities"/>.</param>
/// <param name="StatusCode">HTTP status the service gave the operation (409 conflict, 413 too large, 400 bad request, ...).</param>
/// <param name="Code">The service's error code, e.g. <c>EntityAlreadyExists</c>, or empty.</param>
/// <param name="Message">The service's message, trimmed of request ids and times.</param>
public sealed record OperationFailure(int Index, int StatusCode, string Code, string Message);
