using Loader.Worker.Configuration;

namespace Loader.Worker.Tests.Configuration;

/// <summary>Where the HTML report is written, decided from the settings alone.</summary>
public sealed class HtmlReportLocationTests
{
    [Theory]
    [InlineData(null, null, null)]
    [InlineData(null, "out/report.json", "out/report.html")]
    [InlineData(null, "report", "report.html")]
    [InlineData(null, "r.html", "r.html.report.html")]
    [InlineData("x/page.html", "out/report.json", "x/page.html")]
    [InlineData(null, "https://acct.blob.core.windows.net/state/run/report.json?sv=1&sig=abc", "https://acct.blob.core.windows.net/state/run/report.html?sv=1&sig=abc")]
    public void The_html_report_goes_where_it_is_set_or_beside_the_json_report(string? htmlSetting, string? reportSetting, string? expected)
    {
        var options = new LoaderOptions { HtmlReportPath = htmlSetting, ReportPath = reportSetting };

        Assert.Equal(expected, HtmlReportLocation.Setting(options));
    }
}
