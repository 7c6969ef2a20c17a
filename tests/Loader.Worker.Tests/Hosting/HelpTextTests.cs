using System.Reflection;
using System.Text.RegularExpressions;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Configuration;

namespace Loader.Worker.Tests.Hosting;

/// <summary>
/// <c>--help</c> is generated from the options: these tests walk <see cref="LoaderOptions"/> on their own and hold the
/// help against it, so a setting, switch, default or exit code added to the code but missing from the help fails here.
/// </summary>
public sealed class HelpTextTests
{
    private static readonly string s_help = HelpText.Build();

    /// <summary>Every setting the options bind, found by walking the option classes' settable properties.</summary>
    public static TheoryData<string, string> Settings()
    {
        var data = new TheoryData<string, string>();
        void Walk(string prefix, object options)
        {
            foreach (var property in options.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.SetMethod?.IsPublic == true))
            {
                var value = property.GetValue(options);
                var type = property.PropertyType;
                if (type.IsClass && type != typeof(string) && !type.IsGenericType)
                {
                    Walk($"{prefix}:{property.Name}", value!);
                }
                else
                {
                    data.Add(type.IsGenericType && type.GetGenericTypeDefinition() == typeof(Dictionary<,>) ? $"{prefix}:{property.Name}:<name>" : $"{prefix}:{property.Name}", SettingsCatalog.Format(value));
                }
            }
        }

        Walk("Loader", new LoaderOptions());
        return data;
    }

    [Theory]
    [MemberData(nameof(Settings))]
    public void Every_setting_is_listed_with_its_default_and_a_meaning(string key, string defaultValue)
    {
        var entry = Entry(key);

        Assert.Contains($"default: {(defaultValue.Length == 0 ? "(none)" : defaultValue)}", entry[0], StringComparison.Ordinal);
        Assert.True(entry.Length > 1 && entry[1].Trim().Length > 10, $"{key} has no meaning in --help");
        Assert.DoesNotContain("(no description)", entry[1], StringComparison.Ordinal);
    }

    /// <summary>What a setting accepts is the catalogue's, which the validators hold settings to: a number's or a duration's range, a text's bound.</summary>
    [Theory]
    [MemberData(nameof(Settings))]
    public void Every_setting_shows_what_it_accepts(string key, string defaultValue)
    {
        _ = defaultValue;
        var setting = SettingsCatalog.Describe().Single(setting => setting.Key == key);
        var meaning = Regex.Replace(Entry(key)[1], @"\s+", " ");

        Assert.Contains(setting.Type.IsEnum && !key.EndsWith("<name>", StringComparison.Ordinal) ? "One of: " : $"Accepts: {setting.Accepts}.", meaning, StringComparison.Ordinal);
        Assert.True(setting.IsBounded, $"{key} has no bound in the catalogue");
    }

    [Fact]
    public void Ranges_are_those_of_the_options()
    {
        Assert.Contains("Accepts: 1 to 100.", Entry("Loader:BatchSize")[1], StringComparison.Ordinal);
        Assert.Contains("Accepts: 00:00:00.001 to 49.17:02:47.294.", Entry("Loader:ProgressInterval")[1], StringComparison.Ordinal);
        Assert.Contains("Accepts: 00:00:00.01 to 1.00:00:00.", Entry("Loader:Retry:AttemptTimeout")[1], StringComparison.Ordinal);
        Assert.Contains("Accepts: more than 0; optional.", Entry("Loader:MaxRowsPerSecond")[1], StringComparison.Ordinal);
        Assert.Contains("  Loader:SettingsFile  --settings", s_help, StringComparison.Ordinal);
        Assert.Contains("  Logging:*: ", s_help, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_short_switch_is_listed_beside_its_setting()
    {
        foreach (var (name, key) in CommandLineAliases.SwitchMappings)
        {
            Assert.StartsWith($"  {key}  {name}", Entry(key)[0], StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Every_exit_code_is_listed_with_its_meaning()
    {
        var codes = typeof(ExitCodes).GetFields(BindingFlags.Public | BindingFlags.Static).Where(field => field.IsLiteral).ToList();

        Assert.NotEmpty(codes);
        foreach (var code in codes)
        {
            var line = s_help.Split('\n').Single(text => text.StartsWith($"  {(int)code.GetRawConstantValue()!,3}  ", StringComparison.Ordinal));
            Assert.True(line.Length > 12, $"exit code {code.Name} has no meaning");
            Assert.DoesNotContain(code.Name, line, StringComparison.Ordinal); // the documentation, not the constant's name
        }
    }

    [Fact]
    public void The_defaults_shown_are_those_the_host_binds_from_appsettings_json()
    {
        var configuration = new ConfigurationBuilder().AddJsonFile(Path.Combine(AppContext.BaseDirectory, "appsettings.json")).Build();
        var bound = configuration.GetSection(LoaderOptions.SectionName).Get<LoaderOptions>()!;

        Assert.Equal(SettingsCatalog.Describe().Where(setting => !setting.Key.EndsWith("<name>", StringComparison.Ordinal)).Select(setting => (setting.Key, setting.Default)),
            SettingsCatalog.Values(bound).Select(pair => (pair.Key, pair.Value)));
    }

    [Fact]
    public void Usage_three_examples_and_the_estimate_are_there()
    {
        Assert.Contains("Usage:", s_help, StringComparison.Ordinal);
        Assert.Contains("--estimate [--sample N]", s_help, StringComparison.Ordinal);
        Assert.Equal(3, s_help.Split('\n').Count(line => line.StartsWith("  # ", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task The_process_prints_help_and_its_version_and_exits_0_without_any_settings()
    {
        await using (var help = LoaderProcess.StartWithArguments("--help"))
        {
            Assert.Equal(ExitCodes.Success, await help.WaitForExitAsync(TimeSpan.FromMinutes(1), TestContext.Current.CancellationToken));
            Assert.Contains("Loader:Input  --input", help.Output, StringComparison.Ordinal);
            Assert.DoesNotContain("Invalid settings", help.Output, StringComparison.Ordinal);
        }

        await using var version = LoaderProcess.StartWithArguments("--version");
        Assert.Equal(ExitCodes.Success, await version.WaitForExitAsync(TimeSpan.FromMinutes(1), TestContext.Current.CancellationToken));
        Assert.Equal(LoaderVersion.Informational, version.Output.Trim());
        Assert.Matches(@"^\d+\.\d+\.\d+", LoaderVersion.Informational);
    }

    [Theory]
    [InlineData(new[] { "--help", "--input", "x" }, nameof(LoaderCommandKind.Help), new string[0])]
    [InlineData(new[] { "-h" }, nameof(LoaderCommandKind.Help), new string[0])]
    [InlineData(new[] { "--version" }, nameof(LoaderCommandKind.Version), new string[0])]
    [InlineData(new[] { "--input", "x", "--estimate", "--sample", "5" }, nameof(LoaderCommandKind.Estimate), new[] { "--input", "x", "--sample", "5" })]
    [InlineData(new[] { "--input", "x" }, nameof(LoaderCommandKind.Load), new[] { "--input", "x" })]
    public void The_command_is_taken_out_of_the_arguments(string[] args, string kindName, string[] rest)
    {
        var kind = Enum.Parse<LoaderCommandKind>(kindName);
        var command = LoaderSwitches.Parse(args);

        Assert.Equal(kind, command.Kind);
        Assert.Equal(rest, command.Arguments);
    }

    /// <summary>A setting's lines in the help: its heading, then its meaning.</summary>
    private static string[] Entry(string key)
    {
        var lines = s_help.Split('\n');
        var start = Array.FindIndex(lines, line => line.StartsWith($"  {key}  ", StringComparison.Ordinal));
        Assert.True(start >= 0, $"{key} is not in --help");
        var meaning = string.Join(' ', lines.Skip(start + 1).TakeWhile(line => line.StartsWith("      ", StringComparison.Ordinal)));
        return meaning.Length == 0 ? [lines[start]] : [lines[start], meaning];
    }
}
