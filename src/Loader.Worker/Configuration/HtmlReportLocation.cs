namespace Loader.Worker.Configuration;

/// <summary>Where the HTML report goes: <c>Loader:HtmlReportPath</c>, else beside the JSON report with its name and <c>.html</c>, else nowhere.</summary>
internal static class HtmlReportLocation
{
    /// <summary>The output setting (a path or a blob URL) the HTML report is written to; null when there is none.</summary>
    public static string? Setting(LoaderOptions options) =>
        !string.IsNullOrWhiteSpace(options.HtmlReportPath) ? options.HtmlReportPath : Beside(options.ReportPath);

    /// <summary><c>report.json</c> → <c>report.html</c>, for a path or a blob URL (whose query, a signature perhaps, is kept).</summary>
    public static string? Beside(string? reportPath) => Renamed(reportPath, HtmlName);

    /// <summary>An output beside the report <paramref name="reportPath"/> names, its name made by <paramref name="rename"/>: of a path, or of a blob URL's path (its query, a signature perhaps, kept).</summary>
    internal static string? Renamed(string? reportPath, Func<string, string> rename)
    {
        if (string.IsNullOrWhiteSpace(reportPath))
        {
            return null;
        }

        if (Uri.TryCreate(reportPath, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttps || uri.Scheme == Uri.UriSchemeHttp))
        {
            return rename(uri.GetLeftPart(UriPartial.Path)) + uri.Query;
        }

        return rename(reportPath);
    }

    private static string HtmlName(string path) =>
        Path.GetExtension(path).Equals(".html", StringComparison.OrdinalIgnoreCase) ? path + ".report.html" : Path.ChangeExtension(path, ".html");
}
