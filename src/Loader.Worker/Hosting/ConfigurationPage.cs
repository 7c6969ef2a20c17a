using System.Globalization;
using System.Text;
using Loader.Worker.Configuration;

namespace Loader.Worker.Hosting;

/// <summary>
/// docs/configuration.md, written from the code as <c>--help</c> is: every setting of <see cref="SettingsCatalog"/> with
/// its switch, default, the values it accepts and its meaning, the host sections accepted beside <c>Loader:</c>, and
/// the exit codes. <c>ConfigurationPageTests</c> writes the page and fails while the page and the code differ.
/// </summary>
internal static class ConfigurationPage
{
    /// <summary>How to write the page again, as its first lines say.</summary>
    public const string Regenerate = "REGENERATE_DOCS=1 ./test.sh --filter \"FullyQualifiedName~ConfigurationPageTests\"";

    public static string Build()
    {
        var page = new StringBuilder();
        var c = CultureInfo.InvariantCulture;
        page.AppendLine("# Configuration");
        page.AppendLine();
        page.AppendLine("<!-- Generated from the code by src/Loader.Worker/Hosting/ConfigurationPage.cs: do not edit by hand. -->");
        page.AppendLine();
        page.AppendLine("This page is written from the loader's code, as `--help` is: the settings and their meanings from the options");
        page.AppendLine("classes and their comments, what each accepts from the ranges the validators hold it to, the exit codes from");
        page.AppendLine("`Outcomes/ExitCodes.cs`. A test fails while the page and the code differ; write it again with");
        page.AppendLine(c, $"`{Regenerate}`.");
        page.AppendLine();
        page.AppendLine("## Where settings come from");
        page.AppendLine();
        page.AppendLine("Standard .NET host configuration, each source overriding the one before: `appsettings.json` beside the loader,");
        page.AppendLine("`--settings file.json` (the same shape: `{\"Loader\": {...}}`), the environment (`Loader__Tables__Table=x`), the");
        page.AppendLine("command line (`--Loader:Tables:Table=x`, or a switch: `--table x`). Keys are compared ignoring case. Durations are");
        page.AppendLine("written `[d.]hh:mm:ss[.fffffff]`, e.g. `00:00:05` or `1.00:00:00`.");
        page.AppendLine();
        page.AppendLine("## Checked at start");
        page.AppendLine();
        page.AppendLine("Every mistake below stops the loader before it reads or writes anything, exit 2, with one line per mistake under");
        page.AppendLine("`Invalid settings; nothing was loaded:` on standard error:");
        page.AppendLine();
        page.AppendLine("- a value outside what its setting accepts (the *accepts* column): the message names the key, the range and the value;");
        page.AppendLine("  a value of the wrong type (a word for a number) names the key and the value;");
        page.AppendLine("- a key under `Loader:` that is no setting below, from any source: the message names the key, where it came from");
        page.AppendLine("  (the command line, the environment variable, the file) and the nearest setting (`did you mean Loader:WriteMode?`);");
        page.AppendLine("- on the command line: a switch the loader does not have (`--inptu`: `did you mean --input?`), a word that follows");
        page.AppendLine("  no switch, a switch with no value after it, and a key outside `Loader:` that is none of the host sections below");
        page.AppendLine("  (`--Columns:n=Int32`: `did you mean Loader:Columns:n?`); in a settings file, a top-level key that is neither;");
        page.AppendLine("- a `--settings` file that does not exist or is not a JSON object.");
        page.AppendLine();
        page.AppendLine("`Loader:Columns:<name>` naming no column of the input's header, and a key template using one, stop the load when the");
        page.AppendLine("header is read, before anything is written (exit 2), naming the setting, the header's columns and the nearest one.");
        page.AppendLine("What a section requires is asked only of the chosen backend's section (a Tables load needs no Cosmos settings) and");
        page.AppendLine("of `Loader:Shards` for the verbs of a sharded load; a value out of range is refused in any section.");
        page.AppendLine();
        page.AppendLine("## Settings");
        page.AppendLine();
        page.AppendLine("| setting | switch | default | accepts | meaning |");
        page.AppendLine("| --- | --- | --- | --- | --- |");
        foreach (var setting in SettingsCatalog.Describe().Prepend(SettingsCatalog.SettingsFile))
        {
            page.AppendLine(c, $"| `{setting.Key}` | {(setting.Switch is { } name ? $"`{name}`" : "")} | {(setting.Default.Length == 0 ? "" : $"`{setting.Default}`")} | {Cell(setting.Accepts)} | {Cell(setting.Meaning)} |");
        }

        page.AppendLine();
        page.AppendLine("## Host sections");
        page.AppendLine();
        page.AppendLine("Besides `Loader:`, the command line and a settings file may hold only these keys, which the host or a library");
        page.AppendLine("reads; any other is refused at start. The environment holds every variable of the process, so there only the");
        page.AppendLine("`Loader__` variables are checked.");
        page.AppendLine();
        page.AppendLine("| key | read by |");
        page.AppendLine("| --- | --- |");
        foreach (var (pattern, meaning) in HostSections.Accepted)
        {
            page.AppendLine(c, $"| `{pattern}` | {Cell(meaning)} |");
        }

        page.AppendLine();
        page.AppendLine("## Exit codes");
        page.AppendLine();
        page.AppendLine("| code | meaning |");
        page.AppendLine("| --- | --- |");
        foreach (var (code, meaning) in HelpText.ExitCodeMeanings())
        {
            page.AppendLine(c, $"| {code} | {Cell(meaning)} |");
        }

        return page.ToString();
    }

    /// <summary>Text in a table cell: no column break, no tag.</summary>
    private static string Cell(string text) =>
        text.Replace("|", "\\|", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal);
}
