namespace Loader.Abstractions;

/// <summary>
/// Limits that several settings take from the same library, as the text a
/// <see cref="System.ComponentModel.DataAnnotations.RangeAttribute"/> on a duration setting holds.
/// </summary>
public static class SettingLimits
{
    /// <summary>
    /// The shortest wait the runtime's timers measure: <c>PeriodicTimer</c> refuses less than a millisecond, and
    /// <c>Task.Delay</c> and <c>CancellationTokenSource.CancelAfter</c> count whole milliseconds.
    /// </summary>
    public const string OneMillisecond = "00:00:00.001";

    /// <summary>
    /// The longest wait the runtime's timers take: <c>uint.MaxValue - 1</c> ms (<c>Timer.MaxSupportedTimeout</c>), for
    /// <c>PeriodicTimer</c>, <c>Task.Delay</c> and <c>CancellationTokenSource.CancelAfter</c> alike; a millisecond more
    /// throws <see cref="ArgumentOutOfRangeException"/>.
    /// </summary>
    public const string LongestTimer = "49.17:02:47.294";

    /// <summary><see cref="TimeSpan.MaxValue"/>: a duration no timer is set with has only its type's limit.</summary>
    public const string LongestDuration = "10675199.02:48:05.4775807";

    /// <summary>The longest a message stays hidden in an Azure Storage queue (the service's limit on <c>visibilitytimeout</c>).</summary>
    public const string LongestQueueVisibility = "7.00:00:00";
}
