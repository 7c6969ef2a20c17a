namespace Loader.Worker.Configuration;

/// <summary>
/// The command line read argument by argument the way <c>CommandLineConfigurationProvider</c> reads it, keeping what it
/// drops without a word: a word that follows no switch, a single-dash switch it does not know, a switch with nothing
/// after it. Each key keeps the argument it came from, so a message can quote what the user typed.
/// </summary>
/// <param name="Keys">Every key the provider makes of the arguments, with its value and the argument it was typed as.</param>
/// <param name="Dropped">What the provider ignores or refuses, each with why.</param>
/// <param name="Usable">The arguments without those the provider throws on (<c>-x=1</c>), so the host can be built and
/// the listing of invalid settings name them.</param>
internal sealed record CommandLineArguments(IReadOnlyList<(string Key, string Value, string Typed)> Keys, IReadOnlyList<(string Typed, string Why)> Dropped, string[] Usable)
{
    /// <summary>Why an argument written as a switch is dropped when no switch has its name.</summary>
    public const string NotASwitch = "is not a switch";

    /// <summary>No command line: a host built without one (tests that configure the loader directly).</summary>
    public static CommandLineArguments None { get; } = new([], [], []);

    /// <summary>The value the command line gives <paramref name="key"/> (the last, as configuration takes it); null when none.</summary>
    public string? ValueOf(string key) =>
        Keys.LastOrDefault(entry => entry.Key.Equals(key, StringComparison.OrdinalIgnoreCase)).Value;

    public static CommandLineArguments Parse(string[] args, IReadOnlyDictionary<string, string> switchMappings)
    {
        var keys = new List<(string, string, string)>();
        var dropped = new List<(string, string)>();
        var usable = new List<string>(args.Length);
        for (var i = 0; i < args.Length; i++)
        {
            var typed = args[i];
            var arg = typed.StartsWith('/') ? "--" + typed[1..] : typed;
            var prefix = arg.StartsWith("--", StringComparison.Ordinal) ? 2 : arg.StartsWith('-') ? 1 : 0;
            var separator = arg.IndexOf('=', StringComparison.Ordinal);
            if (separator < 0)
            {
                if (prefix == 0)
                {
                    dropped.Add((typed, "is neither a switch nor the value of one"));
                    usable.Add(typed);
                    continue;
                }

                var hasValue = i + 1 < args.Length;
                string key;
                if (switchMappings.TryGetValue(arg, out var mapped))
                {
                    key = mapped;
                }
                else if (prefix == 1)
                {
                    // The provider skips an unknown short switch and then its value as a stray word: one message for both.
                    dropped.Add((typed, NotASwitch));
                    usable.Add(typed);
                    if (hasValue && args[i + 1] is var next && !next.StartsWith('-') && !next.StartsWith('/') && !next.Contains('=', StringComparison.Ordinal))
                    {
                        usable.Add(args[++i]);
                    }

                    continue;
                }
                else
                {
                    key = arg[prefix..];
                }

                usable.Add(typed);
                if (!hasValue)
                {
                    dropped.Add((typed, "has no value after it"));
                    continue;
                }

                usable.Add(args[++i]);
                keys.Add((key, args[i], typed));
            }
            else
            {
                var segment = arg[..separator];
                if (switchMappings.TryGetValue(segment, out var mapped))
                {
                    keys.Add((mapped, arg[(separator + 1)..], typed));
                }
                else if (prefix == 1)
                {
                    // The provider throws on this one (FormatException), before any setting could be listed.
                    dropped.Add((typed[..separator], NotASwitch));
                    continue;
                }
                else
                {
                    keys.Add((arg[prefix..separator], arg[(separator + 1)..], typed));
                }

                usable.Add(typed);
            }
        }

        return new CommandLineArguments(keys, dropped, [.. usable]);
    }
}
