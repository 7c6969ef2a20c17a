using System.Text.Json;
using Loader.ThrottlingSimulator;
using Loader.Worker.Estimate;
using Loader.Worker.Hosting;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Tests.Estimate;

/// <summary>
/// <c>--estimate</c> against the throttling simulator (in instant mode: the budget, not Azurite or the CPU, sets the
/// pace) at a known request-unit budget: the predicted duration of the load must land within 15% of the duration
/// measured when the load then runs.
/// </summary>
public sealed class LoadEstimateTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task The_predicted_duration_at_a_known_budget_lands_within_15_percent_of_the_measured_load()
    {
        // 8,000 rows of under 1 KiB: 5 RU each in the simulator's cost model, 40,000 RU at 2,700 RU/s ≈ 15 s; the
        // simulator allows 3,000 RU/s, the loader is capped at 90% of it, as a load that leaves the application its share.
        await using var simulator = await SimulatorHost.StartAsync(new SimulatorOptions { Instant = true, RuPerSecond = 3_000, BurstSeconds = 1 }, _cancellation);
        var csv = new CsvText("pk", "rk", "v");
        for (var i = 0; i < 8_000; i++)
        {
            csv.Row($"p{i % 50}", $"r{i:D6}", new string('x', 200));
        }

        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = AzuriteProcess.ConnectionStringAt(simulator.TableEndpoint().AbsoluteUri),
            ["Loader:Tables:Table"] = "planned",
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:MaxRequestUnitsPerSecond"] = "2700",
        };

        var (exitCode, estimate, output) = await EstimateAsync(settings, "--sample", "1000");
        simulator.Reset();
        var load = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(0, exitCode);
        Assert.NotNull(estimate);
        Assert.Equal((8_000L, 50L), (estimate.RowsToWrite, estimate.Partitions.Count));
        Assert.Equal(5, estimate.RequestUnitsPerRow);
        Assert.Equal("measured", estimate.RequestUnitsPerRowSource);
        Assert.Equal(2_700, estimate.RequestUnitsPerSecondBudget);
        Assert.StartsWith("Loader:MaxRequestUnitsPerSecond", estimate.Prediction.LimitedBy, StringComparison.Ordinal);
        var predicted = estimate.Prediction.Seconds!.Value;
        var measured = load.RequireReport().ElapsedSeconds;
        Assert.Equal(8_000, load.RequireReport().RowsWritten);
        Measurements.Record($"--estimate predicted {predicted:N1} s for 8,000 rows at 2,700 RU/s (5 RU/row measured by a 1,000-row sample); the load took {measured:N1} s ({(predicted - measured) / measured:+0.0%;-0.0%})");
        Assert.InRange(predicted, measured * 0.85, measured * 1.15);

        // The text and, after it, the same plan as JSON.
        Assert.Contains("predicted", output, StringComparison.Ordinal);
        var json = JsonDocument.Parse(output[output.IndexOf("\n{", StringComparison.Ordinal)..]).RootElement;
        Assert.Equal(predicted, json.GetProperty("prediction").GetProperty("seconds").GetDouble());
        Assert.Contains(json.GetProperty("cost").GetProperty("lines").EnumerateArray(), line => line.GetProperty("what").GetString() == "request units, serverless" && line.GetProperty("amount").GetDouble() == 0.01);
    }

    [Fact]
    public async Task An_estimate_writes_only_its_sample_and_leaves_no_report_rejects_or_checkpoint()
    {
        await using var simulator = await SimulatorHost.StartAsync(new SimulatorOptions { Instant = true, RuPerSecond = 0 }, _cancellation);
        var csv = new CsvText("pk", "rk");
        for (var i = 0; i < 500; i++)
        {
            csv.Row(i % 2 == 0 ? "a" : "b", $"r{i}");
        }

        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("small.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = AzuriteProcess.ConnectionStringAt(simulator.TableEndpoint().AbsoluteUri),
            ["Loader:Tables:Table"] = "sampled",
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:ReportPath"] = Path.Combine(_directory.Path, "report.json"),
            ["Loader:RejectsPath"] = Path.Combine(_directory.Path, "rejects.csv"),
            ["Loader:CheckpointPath"] = Path.Combine(_directory.Path, "checkpoint.json"),
        };

        var (exitCode, estimate, _) = await EstimateAsync(settings, "--sample", "120");

        Assert.Equal(0, exitCode);
        Assert.Equal(500, estimate!.RowsToWrite);
        Assert.Equal(120, estimate.Sample!.Rows);
        Assert.Equal(120, simulator.Stats.Snapshot().OperationsForwarded);
        Assert.Equal(["small.csv"], Directory.GetFiles(_directory.Path).Select(Path.GetFileName));
    }

    private async Task<(int? ExitCode, LoadEstimate? Estimate, string Output)> EstimateAsync(IReadOnlyDictionary<string, string?> settings, params string[] more)
    {
        string[] args = [.. settings.Select(setting => $"--{setting.Key}={setting.Value}"), LoaderSwitches.EstimateSwitch, .. more];
        var builder = LoaderHost.CreateBuilder(args);
        var output = new StringWriter();
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(new CapturingLoggerProvider());
        builder.Services.AddSingleton(provider => new SummaryOutput(output, provider.GetRequiredService<Redaction>()));
        using var host = builder.Build();
        var job = host.Services.GetRequiredService<EstimateJob>();
        await host.RunAsync(_cancellation);
        return (job.ExitCode, job.Estimate, output.ToString());
    }
}
