using System.Text.Json;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;
using Loader.Worker.Security;

namespace Loader.Worker.Tests.Reporting;

/// <summary>Standard output's summary and JSON go through the host's redaction, as text and as one JSON log line.</summary>
public sealed class SummaryOutputTests
{
    private const string Key = "c3VtbWFyeS1rZXk=";

    [Theory]
    [InlineData(nameof(LogFormat.Text))]
    [InlineData(nameof(LogFormat.Json))]
    public async Task The_summary_is_written_without_secrets(string format)
    {
        var written = new StringWriter();
        var output = new SummaryOutput(written, new Redaction([Key]), Enum.Parse<LogFormat>(format));

        await output.WriteAsync($"Load FAILED: https://acct.blob.core.windows.net/c/in.csv?sv=1&sig=abc\n  key {Key} refused", TimeProvider.System);

        var text = format == nameof(LogFormat.Json) ? JsonDocument.Parse(written.ToString()).RootElement.GetProperty("Message").GetString()! : written.ToString();
        Assert.Contains("Load FAILED: https://acct.blob.core.windows.net/c/in.csv?sv=(removed)&sig=(removed)\n  key (removed) refused", text, StringComparison.Ordinal);
        Assert.DoesNotContain(Key, written.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_value_written_as_JSON_has_every_string_redacted()
    {
        var written = new StringWriter();

        await new SummaryOutput(written, new Redaction([Key])).WriteJsonAsync(new { Input = "https://u:p@h/x", Message = $"key {Key}", Rows = 3 }, new JsonSerializerOptions());

        Assert.Equal("{\"Input\":\"https://(removed)@h/x\",\"Message\":\"key (removed)\",\"Rows\":3}" + Environment.NewLine, written.ToString());
    }
}
