using Loader.ThrottlingSimulator;

namespace Loader.Benchmarks;

/// <summary>
/// The throttling simulator in instant mode, budget off: a Table endpoint that answers every <c>$batch</c> with a
/// valid <c>202</c> at once. This build's Tables adapter is measured with each writer (<c>Loader:Tables:Writer</c>:
/// Direct, the default, and Sdk, the SDK's <c>SubmitTransactionAsync</c>) beside the build <c>--baseline-loader</c>
/// names (the hand-written REST client of commit 491e8a8).
/// </summary>
internal sealed class TableInstantEndpoint(SimulatorHost simulator, IReadOnlyList<InstantVariant> variants) : IInstantEndpoint
{
    public const string SdkName = "Direct writer (this build)";
    public const string SdkWriterName = "Sdk writer (this build)";
    public const string BaselineName = "REST client (--baseline-loader)";

    private const double RowsPerSecondTarget = 100_000;

    public string Description => "the throttling simulator in instant mode, budget off (`--instant true --ru-per-second 0`)";

    public IReadOnlyList<InstantVariant> Variants => variants;

    public static async Task<TableInstantEndpoint> StartAsync(BenchSettings settings, CancellationToken cancellationToken)
    {
        var simulator = await SimulatorHost.StartAsync(new SimulatorOptions { Instant = true, RuPerSecond = 0, Port = 0 }, cancellationToken);
        var connectionString = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
            + $"AccountKey={Worker.Tests.Infrastructure.AzuriteProcess.DevelopmentAccountKey};TableEndpoint={simulator.TableEndpoint().AbsoluteUri.TrimEnd('/')}";
        IReadOnlyList<string> target = ["--table", FlightSchema.Table, $"--Loader:Tables:ConnectionString={connectionString}"];
        var direct = new InstantVariant(SdkName, "direct", null, target, RowsPerSecondTarget);
        var sdk = new InstantVariant(SdkWriterName, "sdk", null, [.. target, "--Loader:Tables:Writer=Sdk"], null);
        return new TableInstantEndpoint(simulator, settings.BaselineLoader is { } baseline ? [new InstantVariant(BaselineName, "rest", baseline, target, null), sdk, direct] : [sdk, direct]);
    }

    public void Reset() => simulator.Reset();

    public (long Requests, long Rows) Counted()
    {
        var stats = simulator.Stats.Snapshot();
        return (stats.Forwarded, stats.OperationsForwarded);
    }

    public ValueTask DisposeAsync() => simulator.DisposeAsync();
}
