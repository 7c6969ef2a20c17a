using Loader.Worker.Configuration;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.CommandLine;

namespace Loader.Worker.Tests.Configuration;

/// <summary>The command line read as the configuration provider reads it, with what the provider drops kept.</summary>
public sealed class CommandLineArgumentsTests
{
    private static CommandLineArguments Parse(params string[] args) => CommandLineArguments.Parse(args, CommandLineAliases.SwitchMappings);

    public static TheoryData<string[]> CommandLines() => new(
        ["--input", "a.csv", "--Loader:BatchSize=5", "/table", "t", "--dry-run=true"],
        ["--inptu", "x", "extra", "-x", "1", "--table"],
        ["key=value", "--a:b", "c", "-y", "--Loader:Columns:n=Int32", "/Loader:Csv:Delimiter=;"],
        ["--input", "/abs/in.csv", "/tmp/other.csv", "--report", "--rejects", "r.csv"],
        ["--INPUT=a", "--input", "b", "--Loader:Input=c"]);

    [Theory]
    [MemberData(nameof(CommandLines))]
    public void Its_keys_and_values_are_those_the_configuration_provider_makes(string[] args)
    {
        var parsed = Parse(args);
        var provider = new CommandLineConfigurationProvider(parsed.Usable, CommandLineAliases.SwitchMappings.ToDictionary());
        provider.Load();

        var keys = KeysOf(provider, null).ToList();
        Assert.Equal(keys.Order(StringComparer.OrdinalIgnoreCase), parsed.Keys.Select(entry => entry.Key).Distinct(StringComparer.OrdinalIgnoreCase).Order(StringComparer.OrdinalIgnoreCase), StringComparer.OrdinalIgnoreCase);
        Assert.All(keys, key => Assert.Equal(provider.TryGet(key, out var value) ? value : null, parsed.ValueOf(key)));
    }

    [Fact]
    public void What_the_provider_ignores_is_kept_with_why()
    {
        Assert.Equal([("b.csv", "is neither a switch nor the value of one")], Parse("--input", "a.csv", "b.csv").Dropped);
        Assert.Equal([("-x", CommandLineArguments.NotASwitch)], Parse("-x", "1", "--input", "a.csv").Dropped); // its value goes with it
        Assert.Equal([("--table", "has no value after it")], Parse("--input", "a.csv", "--table").Dropped);
        Assert.Empty(Parse("--input", "a.csv", "--dry-run=true", "/table", "t").Dropped);
    }

    /// <summary>The provider throws on an unknown short switch with a value, before any setting could be listed: it is left out and named.</summary>
    [Fact]
    public void An_unknown_short_switch_with_a_value_is_named_and_left_out_of_what_the_host_reads()
    {
        var parsed = Parse("-x=1", "--input", "a.csv");

        Assert.Equal([("-x", CommandLineArguments.NotASwitch)], parsed.Dropped);
        Assert.Equal(["--input", "a.csv"], parsed.Usable);
        Assert.Throws<FormatException>(() => new CommandLineConfigurationProvider(["-x=1"], CommandLineAliases.SwitchMappings.ToDictionary()).Load());
    }

    private static IEnumerable<string> KeysOf(IConfigurationProvider provider, string? path)
    {
        foreach (var child in provider.GetChildKeys([], path).Distinct(StringComparer.OrdinalIgnoreCase))
        {
            var key = path is null ? child : $"{path}:{child}";
            if (provider.TryGet(key, out _))
            {
                yield return key;
            }

            foreach (var deeper in KeysOf(provider, key))
            {
                yield return deeper;
            }
        }
    }
}
