using System.Collections;
using System.Reflection;
using System.Text.Json;
using System.Text.RegularExpressions;
using Loader.Worker.Configuration;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Deployment;

/// <summary>
/// Every setting the deployment files and the docs name is one the loader reads: a misspelt environment variable
/// in a compose file or a Bicep template is otherwise ignored without a word, and the load runs on a default; a
/// misspelt setting in the docs is copied into someone's command line.
/// </summary>
public sealed partial class SettingNamesTests
{
    private static readonly HashSet<string> s_known = KnownSettings();

    /// <summary>Files that set the loader's settings: each must name some, or the check reads them wrong.</summary>
    public static TheoryData<string> SettingFiles() =>
    [
        "docker-compose.yml", "README.md", "infra/bicep/main.bicep", "infra/bicep/modules/job.bicep",
        "src/Loader.Worker/appsettings.json", .. DocumentationFiles.Find("data", "*.settings.json"),
    ];

    /// <summary>Every documentation page, found by name so that a new page is checked too; a page may name no setting.</summary>
    public static TheoryData<string> DocumentationPages() => [.. DocumentationFiles.Pages()];

    [Theory]
    [MemberData(nameof(SettingFiles))]
    public void Every_loader_setting_a_file_names_is_a_real_setting(string file) =>
        Assert.NotEmpty(NamedSettingsAreReal(file));

    [Theory]
    [MemberData(nameof(DocumentationPages))]
    public void Every_loader_setting_a_documentation_page_names_is_a_real_setting(string file) => NamedSettingsAreReal(file);

    [Fact]
    public void The_pages_checked_are_every_page_of_the_docs()
    {
        var pages = DocumentationFiles.Pages();

        Assert.Contains("README.md", pages);
        Assert.Contains("bench/README.md", pages);
        Assert.Contains("docs/deploy.md", pages);
        Assert.Equal(Directory.GetFiles(Path.Combine(RepositoryPaths.Root, "docs"), "*.md").Length, pages.Count(page => page.StartsWith("docs/", StringComparison.Ordinal)));
    }

    private static List<string> NamedSettingsAreReal(string file)
    {
        var text = File.ReadAllText(Path.Combine(RepositoryPaths.Root, file));
        var named = file.EndsWith(".json", StringComparison.Ordinal) ? JsonSettings(text) : TextSettings(text);

        var unknown = named.Where(name => !IsKnown(name)).Distinct().ToList();

        Assert.True(unknown.Count == 0, $"{file} names settings the loader does not have: {string.Join(", ", unknown)}");
        return named;
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
        name == CommandLineAliases.SettingsFileKey[(LoaderOptions.SectionName.Length + 1)..] // --settings: a key of the command line, no option
        || s_known.Contains(name) || s_known.Any(known => known.EndsWith(":*", StringComparison.Ordinal) && name.StartsWith(known[..^1], StringComparison.Ordinal))
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
