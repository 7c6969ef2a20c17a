namespace Loader.Abstractions;

/// <summary>
/// The target (table, container) is there but does not fit the settings, e.g. a container partitioned on other paths
/// than configured: a mistake in the settings (exit 2), not a service that cannot be reached. Thrown by an adapter's
/// <see cref="IBackendAdapter.PrepareAsync"/>; the message names both sides.
/// </summary>
public sealed class TargetMismatchException(string message) : Exception(message);
