using Loader.ThrottlingSimulator;
using static Loader.ThrottlingSimulator.OptionArguments;

namespace Loader.CosmosStandIn;

/// <summary>Reads <see cref="StandInOptions"/> from <c>--name value</c> arguments, one option per property.</summary>
public static class CommandLine
{
    public const string Usage =
        "Usage: CosmosStandIn --upstream http://127.0.0.1:8082 [--host 127.0.0.1] [--port 0]\n"
        + "  [--ru-per-second 0] [--partition-ru-per-second 0] [--bucket-ru-per-second 0] [--burst-seconds 1] [--ru-per-kb 5]\n"
        + "  [--instant true]   (answer every request at once; no upstream)";

    /// <summary>The options the arguments describe, validated; <see cref="ArgumentException"/> says what is wrong.</summary>
    public static StandInOptions Parse(IReadOnlyList<string> args)
    {
        var options = OptionArguments.Parse(args, new StandInOptions(), static (options, name, value) => name switch
        {
            "--upstream" => options with { Upstream = AbsoluteUri(name, value) },
            "--host" => options with { Host = value },
            "--port" => options with { Port = WholeNumber(name, value) },
            "--ru-per-second" => options with { RuPerSecond = Number(name, value) },
            "--partition-ru-per-second" => options with { PartitionRuPerSecond = Number(name, value) },
            "--burst-seconds" => options with { BurstSeconds = Number(name, value) },
            "--ru-per-kb" => options with { RuPerKilobyte = Number(name, value) },
            "--bucket-ru-per-second" => options with { BucketRuPerSecond = Number(name, value) },
            "--instant" => options with { Instant = Boolean(name, value) },
            _ => throw Unknown(name),
        });
        options.Validate();
        return options;
    }
}
