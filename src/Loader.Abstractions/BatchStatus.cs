namespace Loader.Abstractions;

/// <summary>How one attempt to write a batch ended.</summary>
public enum BatchStatus
{
    /// <summary>Every operation was applied.</summary>
    Written,

    /// <summary>The service pushed back (429, or 503 Server Busy / 500 Operation Timeout on Table Storage); nothing was applied.</summary>
    Throttled,

    /// <summary>A failure worth retrying (timeout, connection reset, 5xx); nothing is known to be applied.</summary>
    Transient,

    /// <summary>The service refused one or more operations by index; the transaction was rolled back.</summary>
    OperationsRejected,

    /// <summary>The whole batch failed for a reason retrying will not fix (authorization, missing table, bad request not tied to a row).</summary>
    Failed,
}
