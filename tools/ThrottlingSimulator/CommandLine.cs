using System.Globalization;

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
        ArgumentNullException.ThrowIfNull(args);
        var options = new SimulatorOptions();
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            if (i + 1 >= args.Count)
            {
                throw new ArgumentException($"{name} needs a value.");
            }

            var value = args[++i];
            options = name switch
            {
                "--upstream" => options with { Upstream = Uri.TryCreate(value, UriKind.Absolute, out var uri) ? uri : throw Invalid(name, value) },
                "--host" => options with { Host = value },
                "--port" => options with { Port = Int(name, value) },
                "--ru-per-second" => options with { RuPerSecond = Double(name, value) },
                "--burst-seconds" => options with { BurstSeconds = Double(name, value) },
                "--ru-per-kb" => options with { RuPerKilobyte = Double(name, value) },
                "--partition-ru-per-second" => options with { PartitionRuPerSecond = Double(name, value) },
                "--fault-503-rate" => options with { Fault503Rate = Double(name, value) },
                "--fault-500-rate" => options with { Fault500Rate = Double(name, value) },
                "--drop-rate" => options with { DropRate = Double(name, value) },
                "--hold-rate" => options with { HoldRate = Double(name, value) },
                "--hold-ms" => options with { HoldMs = Int(name, value) },
                "--latency-ms" => options with { LatencyMs = Int(name, value) },
                "--latency-jitter-ms" => options with { LatencyJitterMs = Int(name, value) },
                "--seed" => options with { Seed = Int(name, value) },
                "--instant" => options with { Instant = bool.TryParse(value, out var instant) ? instant : throw Invalid(name, value) },
                _ => throw new ArgumentException($"unknown option {name}."),
            };
        }

        options.Validate();
        return options;
    }

    private static int Int(string name, string value) =>
        int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var number) ? number : throw Invalid(name, value);

    private static double Double(string name, string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) ? number : throw Invalid(name, value);

    private static ArgumentException Invalid(string name, string value) => new($"{name} '{value}' is not valid.");
}
