namespace Loader.Abstractions;

/// <summary>
/// An adapter that can prove, before a load, that its credential may write the target: it writes an entity of its own
/// and removes it again. Used by <c>--check</c>, the first thing to run after a deployment.
/// </summary>
public interface IWriteProbe
{
    /// <summary>Writes and deletes a probe entity; returns what it did. Throws as the service answered when it may not.</summary>
    Task<string> ProbeWriteAsync(CancellationToken cancellationToken);
}
