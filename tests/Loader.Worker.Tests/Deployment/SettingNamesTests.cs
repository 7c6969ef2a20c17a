using System.Collections;
using System.Reflection;
using System.Text.Json;
using System.Text.RegularExpressions;
using Loader.Worker.Configuration;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Deployment;

/// <summary>
/// Every setting the deployment files and the docs name is one the loader reads: a misspelt environment variable
/// in a compose file or a Bicep template is otherwise ignored without a word, and the load runs on a default.
/// </summary>
public sealed partial class SettingNamesTests
{
    private static readonly HashSet<string> s_known = KnownSettings();

    public static TheoryData<string> Files() =>
    [
        "docker-compose.yml", "README.md", "docs/deploy.md", "infra/bicep/main.bicep", "infra/bicep/modules/job.bicep",
        "data/sample.settings.json", "src/Loader.Worker/appsettings.json",
    ];

    [Theory]
    [MemberData(nameof(Files))]
    public void Every_loader_setting_a_file_names_is_a_real_setting(string file)
    {
        var text = File.ReadAllText(Path.Combine(RepositoryPaths.Root, file));
        var named = file.EndsWith(".json", StringComparison.Ordinal) ? JsonSettings(text) : TextSettings(text);

        var unknown = named.Where(name => !IsKnown(name)).Distinct().ToList();

        Assert.True(unknown.Count == 0, $"{file} names settings the loader does not have: {string.Join(", ", unknown)}");
        Assert.NotEmpty(named);
    }

    [Fact]
    public void The_check_knows_the_settings_and_catches_a_misspelt_one()
    {
        Assert.True(IsKnown("Tables:ConnectionString"));
        Assert.True(IsKnown("Columns:year"));
        Assert.False(IsKnown("Tables:ConectionString"));
    }

    /// <summary>The structural checkers of compose and Bicep files (infra/*.py) carry their own list: it must be this one.</summary>
    [Fact]
    public void The_infra_checkers_know_exactly_the_loader_settings()
    {
        var script = File.ReadAllText(Path.Combine(RepositoryPaths.Root, "infra", "validate_compose.py"));
        var block = PythonSettingsBlock().Match(script);
        Assert.True(block.Success, "LOADER_SETTINGS = { ... } not found in infra/validate_compose.py");
        var listed = QuotedName().Matches(block.Groups["names"].Value)
            .Select(match => match.Groups[1].Value.EndsWith(':') ? match.Groups[1].Value + "*" : match.Groups[1].Value)
            .ToHashSet(StringComparer.Ordinal);

        var unknown = listed.Except(s_known).Order(StringComparer.Ordinal).ToList();
        var missing = s_known.Except(listed).Order(StringComparer.Ordinal).ToList();
        Assert.True(unknown.Count == 0, $"infra/validate_compose.py lists settings the loader does not have: {string.Join(", ", unknown)}");
        Assert.True(missing.Count == 0, $"infra/validate_compose.py does not list: {string.Join(", ", missing)}");
    }

    private static bool IsKnown(string name) =>
        s_known.Contains(name) || s_known.Any(known => known.EndsWith(":*", StringComparison.Ordinal) && name.StartsWith(known[..^1], StringComparison.Ordinal))
        || s_known.Any(known => known.StartsWith(name + ":", StringComparison.Ordinal)); // a section, e.g. Loader:Tables

    // Loader:Tables:Table in prose, Loader__Tables__Table in environment variables; a placeholder such as <name> ends the match.
    private static List<string> TextSettings(string text) =>
        [.. SettingPattern().Matches(text).Select(match => match.Groups["path"].Value.Replace("__", ":", StringComparison.Ordinal))];

    private static List<string> JsonSettings(string text)
    {
        using var document = JsonDocument.Parse(text, new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip });
        var names = new List<string>();
        if (document.RootElement.TryGetProperty("Loader", out var loader))
        {
            Flatten(loader, "", names);
        }

        return names;
    }

    private static void Flatten(JsonElement element, string prefix, List<string> names)
    {
        foreach (var property in element.EnumerateObject())
        {
            var name = prefix + property.Name;
            names.Add(name);
            if (property.Value.ValueKind == JsonValueKind.Object && !IsKnown(name + ":*"))
            {
                Flatten(property.Value, name + ":", names);
            }
        }
    }

    private static HashSet<string> KnownSettings()
    {
        var known = new HashSet<string>(StringComparer.Ordinal);
        Collect(typeof(LoaderOptions), "", known);
        return known;
    }

    private static void Collect(Type options, string prefix, HashSet<string> known)
    {
        foreach (var property in options.GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.CanWrite))
        {
            var name = prefix + property.Name;
            var type = property.PropertyType;
            if (type != typeof(string) && typeof(IDictionary).IsAssignableFrom(type))
            {
                known.Add(name + ":*");
            }
            else if (type.IsClass && type != typeof(string) && type.Namespace?.StartsWith("Loader.", StringComparison.Ordinal) == true)
            {
                Collect(type, name + ":", known);
            }
            else
            {
                known.Add(name);
            }
        }
    }

    [GeneratedRegex(@"LOADER_SETTINGS = \{(?<names>[^}]*)\}")]
    private static partial Regex PythonSettingsBlock();

    [GeneratedRegex("\"([A-Za-z:]+)\"")]
    private static partial Regex QuotedName();

    [GeneratedRegex(@"\bLoader(?:__|:)(?<path>[A-Za-z]+(?:(?:__|:)[A-Za-z]+)*)")]
    private static partial Regex SettingPattern();
}
