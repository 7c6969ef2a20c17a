using System.Text.Json;
using Loader.ThrottlingSimulator;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Hosting;

/// <summary>
/// The exit codes a job scheduler sees, from the loader's own process (<c>Program.cs</c> and what it returns), one per
/// way a load ends. Invalid settings (exit 2, the listing on standard error) are the reject corpus's
/// <c>settings/</c> cases, run the same way (<see cref="EndToEnd.RejectCorpusTests"/>); a stop is
/// <see cref="EndToEnd.ProcessStopTests"/>.
/// </summary>
public sealed class ExitCodeTests(AzuriteFixture azurite) : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string csv, string connectionString) => new()
    {
        ["Loader:Input"] = _directory.WriteCsv("input.csv", csv),
        ["Loader:Tables:ConnectionString"] = connectionString,
        ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("exit"),
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}",
        ["Loader:Columns:n"] = "Int32",
        ["Loader:ReportPath"] = _directory.File("report.json"),
        ["Loader:LogFormat"] = "Text",
    };

    private static string Rows(int count, Func<int, string>? n = null)
    {
        var csv = new CsvText("pk", "rk", "n");
        for (var i = 1; i <= count; i++)
        {
            csv.Row($"p{i % 3}", $"r{i:D4}", n?.Invoke(i) ?? i.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        return csv.ToString();
    }

    /// <summary>Runs the loader to its end; returns its exit code with its output, and checks the report says the same code.</summary>
    private async Task<(int ExitCode, LoaderProcess Loader)> RunAsync(Dictionary<string, string?> settings)
    {
        var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(s_timeout, _cancellation);
        if (File.Exists(settings["Loader:ReportPath"]))
        {
            using var report = JsonDocument.Parse(File.ReadAllText(settings["Loader:ReportPath"]!));
            Assert.True(exitCode == report.RootElement.GetProperty("exitCode").GetInt32(), $"the process exited with {exitCode}, its report says {report.RootElement.GetProperty("exitCode")}");
        }

        return (exitCode, loader);
    }

    [Fact]
    public async Task A_load_that_writes_every_row_exits_0()
    {
        var settings = Settings(Rows(50), azurite.ConnectionString);

        var (exitCode, loader) = await RunAsync(settings);
        await using var _ = loader;

        Assert.True(exitCode == ExitCodes.Success, $"exit {exitCode}:{Environment.NewLine}{loader.Output}");
        Assert.Contains("Load Completed: 50 read, 50 written, 0 rejected, 0 superseded, 0 failed", loader.Output, StringComparison.Ordinal);
        Assert.Equal("", loader.Error);
        Assert.Equal(50, (await azurite.ReadTableAsync(settings["Loader:Tables:Table"]!, _cancellation)).Count);
    }

    [Fact]
    public async Task Rows_that_fail_after_their_retries_exit_1()
    {
        await using var simulator = await SimulatorHost.StartAsync(
            new SimulatorOptions { Upstream = new Uri(azurite.Azurite.TableEndpoint), Fault503Rate = 1.0 }, _cancellation);
        var throughSimulator = azurite.ConnectionString.Replace(
            azurite.Azurite.TableEndpoint, simulator.TableEndpoint().AbsoluteUri.TrimEnd('/'), StringComparison.Ordinal);
        var settings = Settings(Rows(30), throughSimulator);
        settings["Loader:Retry:MaxAttempts"] = "1";
        settings["Loader:Retry:MaxThrottledWait"] = "00:00:00"; // 503 Server Busy is throttling: the attempts alone decide
        settings["Loader:Retry:BaseDelay"] = "00:00:00.01";

        var (exitCode, loader) = await RunAsync(settings);
        await using var _ = loader;

        Assert.True(exitCode == ExitCodes.RowsFailed, $"exit {exitCode}:{Environment.NewLine}{loader.Output}");
        Assert.Contains("Load CompletedWithFailures: 30 read, 0 written, 0 rejected, 0 superseded, 30 failed", loader.Output, StringComparison.Ordinal);
        Assert.Contains("failed: 503", loader.Output, StringComparison.Ordinal);
    }

    /// <summary>
    /// A refused connection fails the load at once with one message, not after <c>Loader:ConnectTimeout</c>: that is set
    /// far beyond the time this test waits, so a loader that kept trying would fail it by not exiting.
    /// </summary>
    [Fact]
    public async Task An_unreachable_backend_exits_3_at_once_with_one_clear_message()
    {
        var port = AzuriteProcess.FreePort();
        var settings = Settings(Rows(5), $"AccountName=devstoreaccount1;AccountKey=a2V5;TableEndpoint=http://127.0.0.1:{port}/devstoreaccount1");
        settings["Loader:ConnectTimeout"] = "01:00:00";

        var (exitCode, loader) = await RunAsync(settings);
        await using var _ = loader;

        Assert.True(exitCode == ExitCodes.Unavailable, $"exit {exitCode}:{Environment.NewLine}{loader.Output}");
        using var report = JsonDocument.Parse(File.ReadAllText(settings["Loader:ReportPath"]!));
        Assert.StartsWith("Tables: cannot prepare the target: no connection", report.RootElement.GetProperty("message").GetString(), StringComparison.Ordinal);
        Assert.Contains("Tables: cannot prepare the target: no connection", loader.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task More_rejects_than_allowed_exit_4()
    {
        var settings = Settings(Rows(20, i => i % 5 == 0 ? "bad" : "1"), azurite.ConnectionString);
        settings["Loader:MaxRejects"] = "2";

        var (exitCode, loader) = await RunAsync(settings);
        await using var _ = loader;

        Assert.True(exitCode == ExitCodes.RejectLimitExceeded, $"exit {exitCode}:{Environment.NewLine}{loader.Output}");
        Assert.Contains("More than 2 rows rejected (Loader:MaxRejects): stopping the load", loader.Output, StringComparison.Ordinal);
        Assert.Contains("Load RejectLimitExceeded:", loader.Output, StringComparison.Ordinal);
    }
}
