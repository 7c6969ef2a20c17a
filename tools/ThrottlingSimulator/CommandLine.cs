using static Loader.ThrottlingSimulator.OptionArguments;

namespace Loader.ThrottlingSimulator;

/// <summary>Reads <see cref="SimulatorOptions"/> from <c>--name value</c> arguments, one option per property.</summary>
public static class CommandLine
{
    public const string Usage =
        "Usage: ThrottlingSimulator [--upstream http://127.0.0.1:10002] [--host 127.0.0.1] [--port 0]\n"
        + "  [--ru-per-second 10000] [--burst-seconds 1] [--ru-per-kb 5] [--partition-ru-per-second 0]\n"
        + "  [--fault-503-rate 0] [--fault-500-rate 0] [--drop-rate 0] [--hold-rate 0] [--hold-ms 0] [--latency-ms 0] [--latency-jitter-ms 0] [--seed N]\n"
        + "  [--instant true]   (answer every batch with success at once; no upstream)";

    /// <summary>The options the arguments describe, validated; <see cref="ArgumentException"/> says what is wrong.</summary>
    public static SimulatorOptions Parse(IReadOnlyList<string> args)
    {
        var options = OptionArguments.Parse(args, new SimulatorOptions(), static (options, name, value) => name switch
        {
            "--upstream" => options with { Upstream = AbsoluteUri(name, value) },
            "--host" => options with { Host = value },
            "--port" => options with { Port = WholeNumber(name, value) },
            "--ru-per-second" => options with { RuPerSecond = Number(name, value) },
            "--burst-seconds" => options with { BurstSeconds = Number(name, value) },
            "--ru-per-kb" => options with { RuPerKilobyte = Number(name, value) },
            "--partition-ru-per-second" => options with { PartitionRuPerSecond = Number(name, value) },
            "--fault-503-rate" => options with { Fault503Rate = Number(name, value) },
            "--fault-500-rate" => options with { Fault500Rate = Number(name, value) },
            "--drop-rate" => options with { DropRate = Number(name, value) },
            "--hold-rate" => options with { HoldRate = Number(name, value) },
            "--hold-ms" => options with { HoldMs = WholeNumber(name, value) },
            "--latency-ms" => options with { LatencyMs = WholeNumber(name, value) },
            "--latency-jitter-ms" => options with { LatencyJitterMs = WholeNumber(name, value) },
            "--seed" => options with { Seed = WholeNumber(name, value) },
            "--instant" => options with { Instant = Boolean(name, value) },
            _ => throw Unknown(name),
        });
        options.Validate();
        return options;
    }
}
