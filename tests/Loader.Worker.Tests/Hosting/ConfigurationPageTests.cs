using Loader.Worker.Hosting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Hosting;

/// <summary>
/// docs/configuration.md is the code's own account of its settings (<see cref="ConfigurationPage"/>): this test fails
/// while the page and the code differ, and with <c>REGENERATE_DOCS=1</c> writes the page from the code first.
/// </summary>
public sealed class ConfigurationPageTests
{
    private static readonly string s_path = Path.Combine(RepositoryPaths.Root, "docs", "configuration.md");

    [Fact]
    public void The_configuration_page_says_what_the_code_says()
    {
        var generated = ConfigurationPage.Build();
        if (Environment.GetEnvironmentVariable("REGENERATE_DOCS") == "1")
        {
            File.WriteAllText(s_path, generated);
        }

        Assert.True(File.Exists(s_path), $"{s_path} is missing; write it with {ConfigurationPage.Regenerate}");
        var written = File.ReadAllText(s_path).Split('\n');
        var expected = generated.Split('\n');
        var first = Enumerable.Range(0, Math.Max(written.Length, expected.Length))
            .FirstOrDefault(i => i >= written.Length || i >= expected.Length || written[i] != expected[i], -1);
        if (first >= 0)
        {
            Assert.Fail(
                $"docs/configuration.md differs from the code at line {first + 1}:{Environment.NewLine}"
                + $"  page: {(first < written.Length ? written[first] : "(end)")}{Environment.NewLine}"
                + $"  code: {(first < expected.Length ? expected[first] : "(end)")}{Environment.NewLine}"
                + $"Write it again with {ConfigurationPage.Regenerate}");
        }
    }

    [Fact]
    public void The_page_lists_every_setting_the_exit_codes_and_the_host_sections()
    {
        var page = ConfigurationPage.Build();

        foreach (var setting in Loader.Worker.Configuration.SettingsCatalog.Describe())
        {
            Assert.Contains($"| `{setting.Key}` |", page, StringComparison.Ordinal);
        }

        Assert.Contains("| `Loader:SettingsFile` | `--settings` |", page, StringComparison.Ordinal);
        Assert.Contains("| `Loader:BatchSize` | `--batch-size` | `100` | 1 to 100 |", page, StringComparison.Ordinal);
        Assert.Contains("| `Logging:*` |", page, StringComparison.Ordinal);
        foreach (var (code, _) in HelpText.ExitCodeMeanings())
        {
            Assert.Contains($"| {code} | ", page, StringComparison.Ordinal);
        }
    }
}
