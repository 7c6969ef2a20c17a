using System.Text.Json;
using Loader.ThrottlingSimulator;
using Loader.Worker.Estimate;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Tests.Estimate;

/// <summary>
/// <c>--estimate</c> against the throttling simulator (in instant mode: the budget, not Azurite or the CPU, sets the
/// pace), at a request-unit budget the loader is told of and at one it must find: the predicted duration of the load
/// must land within 15% of the duration measured when the load then runs.
/// </summary>
public sealed class LoadEstimateTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>A load of <paramref name="rows"/> rows of under 1 KiB (5 RU each in the simulator's cost model) over 50 partitions, through the simulator.</summary>
    private Dictionary<string, string?> Through(SimulatorHost simulator, int rows, string table)
    {
        var csv = new CsvText("pk", "rk", "v");
        for (var i = 0; i < rows; i++)
        {
            csv.Row($"p{i % 50}", $"r{i:D6}", new string('x', 200));
        }

        return new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = AzuriteProcess.ConnectionStringAt(simulator.TableEndpoint().AbsoluteUri),
            ["Loader:Tables:Table"] = table,
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
        };
    }

    [Fact]
    public async Task The_predicted_duration_at_a_known_budget_lands_within_15_percent_of_the_measured_load()
    {
        // 8,000 rows of under 1 KiB: 5 RU each in the simulator's cost model, 40,000 RU at 2,700 RU/s ≈ 15 s; the
        // simulator allows 3,000 RU/s, the loader is capped at 90% of it, as a load that leaves the application its share.
        await using var simulator = await SimulatorHost.StartAsync(new SimulatorOptions { Instant = true, RuPerSecond = 3_000, BurstSeconds = 1 }, _cancellation);
        var settings = Through(simulator, 8_000, "planned");
        settings["Loader:MaxRequestUnitsPerSecond"] = "2700";

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

    /// <summary>
    /// The budget is not set anywhere, and its burst allowance (3 s of 3,000 RU/s, 9,000 RU: 1,800 rows of 5 RU) is larger
    /// than the first 1,000 sample rows (5,000 RU), which it lets through at whatever pace they go: the sample must ramp
    /// until it is throttled and predict from what the budget lets through after that, not from the burst.
    /// </summary>
    [Fact]
    public async Task A_budget_whose_burst_allowance_outlasts_the_first_sample_rows_is_found_and_the_load_lands_within_15_percent()
    {
        await using var simulator = await SimulatorHost.StartAsync(new SimulatorOptions { Instant = true, RuPerSecond = 3_000, BurstSeconds = 3 }, _cancellation);
        var settings = Through(simulator, 12_000, "found");

        var (exitCode, estimate, output) = await EstimateAsync(settings);
        simulator.Reset(); // the bucket full again, as after the pause between an estimate and the load
        var load = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(0, exitCode);
        var prediction = estimate!.Prediction;
        Assert.Equal(PaceLimit.ServiceBudget, prediction.Limit);
        Assert.False(prediction.LowerBound);
        Assert.True(estimate.Ramp!.Steps.Count >= 2, "the first step fits in the burst; a later one must meet the budget");
        Assert.Equal(0, estimate.Ramp.Steps[0].Throttled);
        var (low, high) = (prediction.LowSeconds!.Value, prediction.HighSeconds!.Value);
        var midpoint = (low + high) / 2;
        var measured = load.RequireReport().ElapsedSeconds;
        Assert.Equal(12_000, load.RequireReport().RowsWritten);
        Measurements.Record($"--estimate with no budget set, 3,000 RU/s and a 9,000 RU burst: predicted {prediction.Seconds:N1} s ({low:N1} to {high:N1}, {prediction.RowsPerSecond:N0} rows/s, burst {estimate.Ramp.BurstRequestUnits:N0} RU) for 12,000 rows; the load took {measured:N1} s ({(midpoint - measured) / measured:+0.0%;-0.0%} at the midpoint)");
        Assert.InRange(measured, midpoint * 0.85, midpoint * 1.15);

        // The bytes that travel, measured on the sample's requests, are well under the request-size bound batches are cut by.
        Assert.InRange(estimate.SentBytesPerRow!.Value, 250, estimate.PayloadBytes / (double)estimate.RowsToWrite);
        Assert.Contains("service budget", output, StringComparison.Ordinal);
        var json = JsonDocument.Parse(output[output.IndexOf("\n{", StringComparison.Ordinal)..]).RootElement.GetProperty("prediction");
        Assert.Equal("ServiceBudget", json.GetProperty("limit").GetString());
        Assert.Equal(low, json.GetProperty("lowSeconds").GetDouble());
        Assert.Equal(high, json.GetProperty("highSeconds").GetDouble());
    }

    [Fact]
    public async Task A_ramp_time_out_of_range_is_refused_at_start_naming_the_setting()
    {
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("small.csv", "pk,rk\na,1\n"),
            ["Loader:Tables:ConnectionString"] = AzuriteProcess.ConnectionStringAt("http://127.0.0.1:1/devstoreaccount1"),
            ["Loader:Tables:Table"] = "refused",
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Estimate:RampTime"] = "00:11:00",
        };

        var (exitCode, estimate, output) = await EstimateAsync(settings);

        Assert.Equal(ExitCodes.InvalidConfiguration, exitCode);
        Assert.Null(estimate);
        Assert.Contains("Loader:Estimate:RampTime must be between 00:00:00 and 00:10:00, was 00:11:00.", output, StringComparison.Ordinal);
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

        var (exitCode, estimate, _) = await EstimateAsync(new Dictionary<string, string?>(settings) { ["Loader:Estimate:RampTime"] = "00:00:00" }, "--sample", "120");
        var forwarded = simulator.Stats.Snapshot().OperationsForwarded;
        var (_, ramped, _) = await EstimateAsync(settings, "--sample", "120");

        Assert.Equal(0, exitCode);
        Assert.Equal(500, estimate!.RowsToWrite);
        Assert.Equal(120, estimate.Sample!.Rows);
        Assert.Equal(120, forwarded); // no time to ramp: the first step alone
        // Ramping, each step writes the input's first rows, twice as many as the last, up to all of them at 16 in flight;
        // on a busy machine a step's latency may pass for the knee, which ends the ramp there.
        (long, int)[] steps = [(120, 4), (240, 8), (480, 16), (500, 16)];
        var taken = ramped!.Ramp!.Steps.Select(step => (step.Rows, step.Concurrency)).ToList();
        Assert.True(taken.Count >= 2 && steps.Take(taken.Count).SequenceEqual(taken), string.Join(", ", taken));
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
        try
        {
            using var host = builder.Build();
            var job = host.Services.GetRequiredService<EstimateJob>();
            await host.RunAsync(_cancellation);
            return (job.ExitCode, job.Estimate, output.ToString());
        }
        catch (Exception exception) when (StartupFailure.IsInvalidSettings(exception))
        {
            // What the program prints and returns for settings it refuses (Program.cs).
            var error = new StringWriter();
            var exitCode = await StartupFailure.ReportAsync(exception, error, SecretSettings.RedactionOf(builder.Configuration));
            return (exitCode, null, error.ToString());
        }
    }
}
