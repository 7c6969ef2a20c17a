using System.Text.Json;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// The loader as a container runs it (its own process, output not a terminal, so JSON logs), with keys in its
/// connection strings: whether the load works or the key is refused, no key reaches the logs or the report.
/// </summary>
public sealed class SecretsInLogsTests(AzuriteFixture azurite) : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string connectionString) => new()
    {
        ["Loader:Input"] = Path.Combine(RepositoryPaths.Data, "sample.csv"),
        ["Loader:Tables:ConnectionString"] = connectionString,
        ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("secrets"),
        ["Loader:PartitionKey"] = "{dest}",
        ["Loader:RowKey"] = "{year}-{month}-{day}-{carrier}-{flight}",
        ["Loader:ReportPath"] = _directory.File("report.json"),
        ["Logging:LogLevel:Default"] = "Trace", // everything the loader and its libraries would ever log
    };

    [Fact]
    public async Task A_load_with_an_account_key_logs_JSON_lines_that_never_contain_the_key()
    {
        var key = AzuriteProcess.DevelopmentAccountKey;
        await using var loader = LoaderProcess.Start(Settings(azurite.ConnectionString));

        Assert.Equal(ExitCodes.Success, await loader.WaitForExitAsync(s_timeout, _cancellation));

        var lines = JsonLines(loader.Output);
        Assert.Contains(lines, line => line.GetProperty("Message").GetString()!.StartsWith("Load Completed", StringComparison.Ordinal));
        AssertNoSecret(key, loader.Output);
        AssertNoSecret(key, File.ReadAllText(_directory.File("report.json")));
        var page = File.ReadAllText(_directory.File("report.html")); // the HTML report, beside the JSON one, lists the settings
        Assert.Contains("Loader:Tables:ConnectionString", page, StringComparison.Ordinal);
        AssertNoSecret(key, page);
    }

    [Fact]
    public async Task A_refused_account_key_fails_with_a_clear_message_that_does_not_repeat_the_key()
    {
        var wrongKey = Convert.ToBase64String(Enumerable.Range(1, 64).Select(i => (byte)(i * 7)).ToArray());
        var connectionString = azurite.ConnectionString.Replace(AzuriteProcess.DevelopmentAccountKey, wrongKey, StringComparison.Ordinal);
        await using var loader = LoaderProcess.Start(Settings(connectionString));

        Assert.Equal(ExitCodes.Unavailable, await loader.WaitForExitAsync(s_timeout, _cancellation));

        Assert.Contains("403", loader.Output, StringComparison.Ordinal);
        AssertNoSecret(wrongKey, loader.Output);
    }

    [Fact]
    public async Task A_Cosmos_key_for_an_endpoint_that_does_not_answer_stays_out_of_the_logs()
    {
        var key = Convert.ToBase64String(Enumerable.Range(1, 64).Select(i => (byte)(255 - i)).ToArray());
        var settings = Settings("");
        settings.Remove("Loader:Tables:ConnectionString");
        settings.Remove("Loader:Tables:Table");
        settings["Loader:Backend"] = "Cosmos";
        settings["Loader:Cosmos:ConnectionString"] = $"AccountEndpoint=https://127.0.0.1:{AzuriteProcess.FreePort()}/;AccountKey={key};";
        settings["Loader:Cosmos:Database"] = "db";
        settings["Loader:Cosmos:Container"] = "flights";
        settings["Loader:ConnectTimeout"] = "00:00:05";
        await using var loader = LoaderProcess.Start(settings);

        Assert.NotEqual(ExitCodes.Success, await loader.WaitForExitAsync(s_timeout, _cancellation));

        AssertNoSecret(key, loader.Output);
    }

    /// <summary>Every line of the output is one JSON object, as a log collector expects.</summary>
    private static List<JsonElement> JsonLines(string output) =>
        [.. output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(line =>
        {
            try
            {
                return JsonDocument.Parse(line).RootElement.Clone();
            }
            catch (JsonException exception)
            {
                throw new Xunit.Sdk.XunitException($"not a JSON line: {line} ({exception.Message})");
            }
        })];

    /// <summary>Neither the key nor a recognisable piece of it (a third is plenty to find it).</summary>
    private static void AssertNoSecret(string key, string text)
    {
        Assert.DoesNotContain(key, text, StringComparison.Ordinal);
        Assert.DoesNotContain(key[..(key.Length / 3)], text, StringComparison.Ordinal);
        Assert.DoesNotContain(Uri.EscapeDataString(key)[..(key.Length / 3)], text, StringComparison.Ordinal);
    }
}
