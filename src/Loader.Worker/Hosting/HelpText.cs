using System.Globalization;
using System.Reflection;
using System.Text;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;

namespace Loader.Worker.Hosting;

/// <summary>
/// What <c>--help</c> prints: usage, every setting with its switch, default and meaning, the exit codes, and examples.
/// Settings come from <see cref="SettingsCatalog"/> and exit codes from <see cref="ExitCodes"/>, each with its XML
/// documentation, so the help cannot fall behind the code.
/// </summary>
internal static class HelpText
{
    private const int Width = 100;
    private const string Indent = "      ";

    public static string Build()
    {
        var text = new StringBuilder();
        var c = CultureInfo.InvariantCulture;
        text.AppendLine(c, $"Bulk loader {LoaderVersion.Informational}");
        text.AppendLine("Loads a CSV file or blobs into Azure Table Storage or Azure Cosmos DB for NoSQL as partition-grouped");
        text.AppendLine("batches, reports what it did (JSON, HTML, rejects file) and exits with a code that says how it went.");
        text.AppendLine();
        text.AppendLine("Usage:");
        text.AppendLine("  dotnet Loader.Worker.dll [--settings file.json] [--switch value ...] [--Loader:Key=value ...]");
        text.AppendLine("  dotnet Loader.Worker.dll --estimate [--sample N] [settings ...]");
        text.AppendLine("      reads the whole input without writing, writes N sample rows (default 1,000; 0: none) and then");
        text.AppendLine("      more of the input's first rows at more batches in flight for a few seconds until the service");
        text.AppendLine("      pushes back, to measure RU per row and the pace; prints rows, partitions, the limit found, the");
        text.AppendLine("      predicted duration as a range (or a lower bound) and cost, then the plan as JSON");
        text.AppendLine("  dotnet Loader.Worker.dll --check [settings ...]");
        text.AppendLine("      proves the outputs writable, the input readable and the target ready, and loads nothing");
        text.AppendLine("  dotnet Loader.Worker.dll plan|work|status --Loader:Shards:State url --Loader:Shards:Queue url [settings ...]");
        text.AppendLine("      a sharded load: plan cuts the input into shards and queues them, each work process loads");
        text.AppendLine("      shards until the queue is empty, status merges the shards' reports (docs/scale-out.md)");
        text.AppendLine("  dotnet Loader.Worker.dll verify [--extra] [the load's settings ...]");
        text.AppendLine("      reads the input again and the target back and compares them row by row; exit 8 when rows are");
        text.AppendLine("      missing or different (docs/verify.md); with Loader:Shards:State, every shard of a sharded load");
        text.AppendLine("  dotnet Loader.Worker.dll --help | --version");
        text.AppendLine();
        text.AppendLine("Settings are read from appsettings.json, then --settings file.json (same shape), then the");
        text.AppendLine("environment (Loader__Tables__Table=x), then the command line (--Loader:Tables:Table=x or a switch);");
        text.AppendLine("each overrides the one before. Times are [d.]hh:mm:ss[.fff]. A key under Loader: that is no setting");
        text.AppendLine("below, and a switch or command-line key that is none, stop the load at start (exit 2).");
        text.AppendLine();
        text.AppendLine("Settings:");
        foreach (var setting in SettingsCatalog.Describe().Prepend(SettingsCatalog.SettingsFile))
        {
            text.Append(c, $"  {setting.Key}");
            if (setting.Switch is { } name)
            {
                text.Append(c, $"  {name}");
            }

            text.AppendLine(setting == SettingsCatalog.SettingsFile ? "" : $"  default: {(setting.Default.Length == 0 ? "(none)" : setting.Default)}");
            Wrap(text, setting.Meaning.Length == 0 ? "(no description)" : setting.Meaning);
            if (!setting.Type.IsEnum || setting.Key.EndsWith("<name>", StringComparison.Ordinal))
            {
                // A choice's meaning lists its values already.
                Wrap(text, $"Accepts: {setting.Accepts}.");
            }
        }

        text.AppendLine();
        text.AppendLine("Besides Loader: settings, the command line and a settings file take only the host's sections:");
        foreach (var (section, meaning) in HostSections.Accepted)
        {
            Wrap(text, $"{section}: {meaning}", "  ", Indent);
        }

        text.AppendLine();
        text.AppendLine("Exit codes:");
        foreach (var (code, meaning) in ExitCodeMeanings())
        {
            Wrap(text, meaning, $"  {code,3}  ", "       ");
        }

        text.AppendLine();
        text.AppendLine("Examples:");
        text.AppendLine("  # a local file into a table (Azurite when no connection string or endpoint is given)");
        text.AppendLine("  dotnet Loader.Worker.dll --input flights.csv --table flights --partition-key \"{dest}\" \\");
        text.AppendLine("    --row-key \"{year}-{month}-{day}-{carrier}-{flight}\" --Loader:Columns:year=Int32 --report report.json");
        text.AppendLine("  # every blob under a prefix into Cosmos DB, signed in with the managed identity");
        text.AppendLine("  dotnet Loader.Worker.dll --backend Cosmos --input https://acme.blob.core.windows.net/input/flights/ \\");
        text.AppendLine("    --partition-key \"{dest}\" --row-key \"{year}-{month}-{day}-{carrier}-{flight}\" \\");
        text.AppendLine("    --Loader:Cosmos:Endpoint=https://acme.documents.azure.com:443/ --Loader:Cosmos:Database=loads \\");
        text.AppendLine("    --Loader:Cosmos:Container=flights --checkpoint https://acme.blob.core.windows.net/state/flights.json");
        text.AppendLine("  # what a load described in a file will take and cost, before running it");
        text.AppendLine("  dotnet Loader.Worker.dll --settings load.json --estimate --sample 2000 --Loader:MaxRequestUnitsPerSecond=7000");
        return text.ToString();
    }

    /// <summary>Every exit code with its meaning (the constant's documentation), lowest first.</summary>
    public static IReadOnlyList<(int Code, string Meaning)> ExitCodeMeanings() =>
        [.. typeof(ExitCodes).GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(field => field.IsLiteral && field.FieldType == typeof(int))
            .Select(field => ((int)field.GetRawConstantValue()!, XmlDocumentation.Summary(field) ?? field.Name))
            .OrderBy(code => code.Item1)];

    /// <summary>A paragraph in lines of at most <see cref="Width"/> characters: the first after <paramref name="first"/>, the others after <paramref name="indent"/>.</summary>
    private static void Wrap(StringBuilder text, string paragraph, string first = Indent, string indent = Indent)
    {
        var line = new StringBuilder(first);
        var start = first.Length;
        foreach (var word in paragraph.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.Length > start && line.Length + 1 + word.Length > Width)
            {
                text.AppendLine(line.ToString());
                line.Clear().Append(indent);
                start = indent.Length;
            }

            line.Append(line.Length > start ? " " : "").Append(word);
        }

        text.AppendLine(line.ToString());
    }
}
