using System.Globalization;

namespace Loader.CosmosStandIn;

/// <summary>Reads <see cref="StandInOptions"/> from <c>--name value</c> arguments, one option per property.</summary>
public static class CommandLine
{
    public const string Usage =
        "Usage: CosmosStandIn --upstream http://127.0.0.1:8082 [--host 127.0.0.1] [--port 0]\n"
        + "  [--ru-per-second 0] [--partition-ru-per-second 0] [--burst-seconds 1] [--ru-per-kb 5]";

    /// <summary>The options the arguments describe, validated; <see cref="ArgumentException"/> says what is wrong.</summary>
    public static StandInOptions Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var options = new StandInOptions();
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
                "--port" => options with { Port = int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var port) ? port : throw Invalid(name, value) },
                "--ru-per-second" => options with { RuPerSecond = Double(name, value) },
                "--partition-ru-per-second" => options with { PartitionRuPerSecond = Double(name, value) },
                "--burst-seconds" => options with { BurstSeconds = Double(name, value) },
                "--ru-per-kb" => options with { RuPerKilobyte = Double(name, value) },
                _ => throw new ArgumentException($"unknown option {name}."),
            };
        }

        options.Validate();
        return options;
    }

    private static double Double(string name, string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) ? number : throw Invalid(name, value);

    private static ArgumentException Invalid(string name, string value) => new($"{name} '{value}' is not valid.");
}
