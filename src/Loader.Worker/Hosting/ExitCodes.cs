namespace Loader.Worker.Hosting;

/// <summary>The loader's process exit codes; a non-zero code marks a Container Apps job execution failed.</summary>
public static class ExitCodes
{
    /// <summary>Every row was written, superseded, or rejected within <c>Loader:MaxRejects</c>.</summary>
    public const int Success = 0;

    /// <summary>Some rows could not be written after their retries (see the report's <c>errors</c>).</summary>
    public const int RowsFailed = 1;

    /// <summary>A setting or the input's header is invalid; nothing was written.</summary>
    public const int InvalidConfiguration = 2;

    /// <summary>The input or the backend could not be reached or refused the credentials; nothing was written.</summary>
    public const int Unavailable = 3;

    /// <summary>More rows were rejected than <c>Loader:MaxRejects</c> allows; the load stopped.</summary>
    public const int RejectLimitExceeded = 4;

    /// <summary>The load was stopped (SIGTERM, Ctrl-C) before the end of the input.</summary>
    public const int Stopped = 5;

    /// <summary>An unexpected error; the message and the report say what.</summary>
    public const int InternalError = 10;
}
