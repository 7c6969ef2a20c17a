namespace Loader.Worker.Pipeline;

/// <summary>The load could not start or go on; <see cref="ExitCode"/> says why in the terms of <see cref="Hosting.ExitCodes"/>.</summary>
public sealed class LoadAbortedException(int exitCode, string message, Exception? inner = null) : Exception(message, inner)
{
    public int ExitCode { get; } = exitCode;
}
