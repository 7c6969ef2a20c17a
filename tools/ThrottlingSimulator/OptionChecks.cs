using System.Globalization;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// The checks every test proxy's options make (the throttling simulator, the Cosmos DB stand-in), with messages that
/// name the command-line option at fault.
/// </summary>
public static class OptionChecks
{
    /// <summary>Throws <see cref="ArgumentException"/> with <paramref name="message"/> unless <paramref name="condition"/> holds.</summary>
    public static void Require(bool condition, string message)
    {
        if (!condition)
        {
            throw new ArgumentException(message);
        }
    }

    /// <summary>The listening port and the request-unit budget: <c>--port</c>, <c>--ru-per-second</c>, <c>--partition-ru-per-second</c>, <c>--burst-seconds</c>, <c>--ru-per-kb</c>.</summary>
    public static void RequirePortAndBudget(int port, double ruPerSecond, double partitionRuPerSecond, double burstSeconds, double ruPerKilobyte)
    {
        Require(port is >= 0 and <= 65535, "--port must be between 0 and 65535.");
        Require(ruPerSecond >= 0 && double.IsFinite(ruPerSecond), "--ru-per-second must be 0 (off) or positive.");
        Require(partitionRuPerSecond >= 0 && double.IsFinite(partitionRuPerSecond), "--partition-ru-per-second must be 0 (off) or positive.");
        Require(burstSeconds > 0 && double.IsFinite(burstSeconds), "--burst-seconds must be positive.");
        Require(ruPerKilobyte > 0 && double.IsFinite(ruPerKilobyte), string.Create(CultureInfo.InvariantCulture, $"--ru-per-kb must be positive, not {ruPerKilobyte}."));
    }
}
