namespace Loader.Worker.Configuration;

/// <summary>Short command-line switches for the settings used most; any setting also works as <c>--Loader:Key=value</c>.</summary>
internal static class CommandLineAliases
{
    public static readonly IReadOnlyDictionary<string, string> SwitchMappings = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
    {
        ["--settings"] = "Loader:SettingsFile",
        ["--input"] = "Loader:Input",
        ["--backend"] = "Loader:Backend",
        ["--partition-key"] = "Loader:PartitionKey",
        ["--row-key"] = "Loader:RowKey",
        ["--write-mode"] = "Loader:WriteMode",
        ["--batch-size"] = "Loader:BatchSize",
        ["--parallel"] = "Loader:MaxParallelBatches",
        ["--report"] = "Loader:ReportPath",
        ["--html-report"] = "Loader:HtmlReportPath",
        ["--rejects"] = "Loader:RejectsPath",
        ["--checkpoint"] = "Loader:CheckpointPath",
        ["--max-rejects"] = "Loader:MaxRejects",
        ["--dry-run"] = "Loader:DryRun",
        ["--check"] = "Loader:Check",
        ["--delimiter"] = "Loader:Csv:Delimiter",
        ["--culture"] = "Loader:Csv:Culture",
        ["--time-zone"] = "Loader:Csv:TimeZone",
        ["--compression"] = "Loader:Csv:Compression",
        ["--table"] = "Loader:Tables:Table",
        ["--tables-endpoint"] = "Loader:Tables:Endpoint",
        ["--sample"] = "Loader:Estimate:SampleRows",
        ["--extra"] = "Loader:Verify:Extra",
    };

    private static readonly HashSet<string> s_flags = new(StringComparer.OrdinalIgnoreCase) { "--dry-run", "--Loader:DryRun", "--check", "--Loader:Check", "--extra", "--Loader:Verify:Extra" };

    /// <summary>The setting <c>--settings</c> names: a file of settings, not a setting of the load itself.</summary>
    public const string SettingsFileKey = "Loader:SettingsFile";

    /// <summary>The verbs, given first on the command line: a sharded load's <c>plan</c>, <c>work</c>, <c>status</c>, and <c>verify</c>.</summary>
    public static readonly IReadOnlyDictionary<string, LoaderCommand> Verbs = new Dictionary<string, LoaderCommand>(StringComparer.OrdinalIgnoreCase)
    {
        ["plan"] = LoaderCommand.Plan,
        ["work"] = LoaderCommand.Work,
        ["status"] = LoaderCommand.Status,
        ["verify"] = LoaderCommand.Verify,
    };

    /// <summary>
    /// Flags written without a value (<c>--dry-run</c>) mean true; the configuration provider needs the value spelled out.
    /// A verb given first (<c>plan</c>, <c>work</c>, <c>status</c>, <c>verify</c>) becomes <c>Loader:Command</c>.
    /// </summary>
    public static string[] Normalize(string[] args)
    {
        var normalized = new List<string>(args.Length);
        var first = 0;
        if (args.Length > 0 && Verbs.TryGetValue(args[0], out var command))
        {
            normalized.Add($"--Loader:Command={command}");
            first = 1;
        }
        else if (args.Length > 0 && args[0].Length > 0 && args[0][0] != '-' && !args[0].Contains('=', StringComparison.Ordinal))
        {
            // A word that is no verb: binding Loader:Command refuses it, naming it, rather than the word being ignored.
            normalized.Add($"--Loader:Command={args[0]}");
            first = 1;
        }

        for (var i = first; i < args.Length; i++)
        {
            var arg = args[i];
            var isBareFlag = s_flags.Contains(arg);
            var nextIsValue = i + 1 < args.Length && !args[i + 1].StartsWith('-');
            normalized.Add(isBareFlag && !nextIsValue ? arg + "=true" : arg);
        }

        return [.. normalized];
    }
}
