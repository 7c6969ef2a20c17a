namespace Loader.Worker.Configuration;

/// <summary>
/// Where <c>verify</c> writes its reports: <c>Loader:Verify:ReportPath</c>, else beside the load's own report
/// (<c>report.json</c> → <c>report.verify.json</c>), so that verify run with the load's very settings keeps the load's
/// report; the HTML report beside the JSON one (<c>report.verify.html</c>). None without either setting.
/// </summary>
internal static class VerifyReportLocation
{
    public const string Key = "Loader:Verify:ReportPath";

    /// <summary>The JSON report's output setting (a path or a blob URL); null when there is none.</summary>
    public static string? Json(LoaderOptions options) =>
        !string.IsNullOrWhiteSpace(options.Verify.ReportPath) ? options.Verify.ReportPath : Beside(options.ReportPath);

    /// <summary>The HTML report's: beside the JSON one.</summary>
    public static string? Html(LoaderOptions options) => HtmlReportLocation.Beside(Json(options));

    /// <summary>The reports verify writes, each with the setting that places it.</summary>
    public static IEnumerable<(string Key, string Setting)> Configured(LoaderOptions options) =>
        new[] { Json(options), Html(options) }.OfType<string>().Select(setting => (Key, setting));

    /// <summary><c>report.json</c> → <c>report.verify.json</c>, for a path or a blob URL.</summary>
    private static string? Beside(string? reportPath) => HtmlReportLocation.Renamed(reportPath, VerifyName);

    private static string VerifyName(string path) => Path.ChangeExtension(path, ".verify" + (Path.HasExtension(path) ? Path.GetExtension(path) : ".json"));
}
