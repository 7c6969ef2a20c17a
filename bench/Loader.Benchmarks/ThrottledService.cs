using System.Globalization;
using Azure;
using Loader.ThrottlingSimulator;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Benchmarks;

/// <summary>
/// A fresh in-memory Azurite behind the throttling simulator, which runs in this process: a Table service that
/// charges request units and answers 429 over its budget, as Cosmos DB for Table does. Azurite never throttles.
/// </summary>
internal sealed class ThrottledService : IThrottledService
{
    private ThrottledService(AzuriteProcess azurite, SimulatorHost simulator)
    {
        Azurite = azurite;
        Simulator = simulator;
    }

    public AzuriteProcess Azurite { get; }

    public SimulatorHost Simulator { get; }

    public string Description => "Azurite behind the throttling simulator (Cosmos DB for Table)";

    public IReadOnlyList<string> LoaderArguments => ["--table", FlightSchema.Table, $"--Loader:Tables:ConnectionString={ConnectionString}"];

    public int? StorePid => AzuritePid;

    public SimulatorStatsSnapshot Counted() => Simulator.Stats.Snapshot();

    public async Task<long?> CountStoredAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await TableCount.CountAsync(Azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        }
        catch (RequestFailedException exception) when (exception.Status == 404)
        {
            return null; // the table was never created
        }
    }

    /// <summary>The loader's way in: the emulator account, reached through the simulator.</summary>
    public string ConnectionString =>
        "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
        + $"AccountKey={AzuriteProcess.DevelopmentAccountKey};TableEndpoint={Simulator.TableEndpoint().AbsoluteUri.TrimEnd('/')}";

    /// <summary>Azurite's process, to measure the CPU it used: near one core it, not the budget, sets the pace.</summary>
    public int? AzuritePid => ProcFs.FindByArgument("--tablePort", Azurite.TablePort.ToString(CultureInfo.InvariantCulture));

    public static async Task<ThrottledService> StartAsync(BenchSettings settings, CancellationToken cancellationToken)
    {
        var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken);
        try
        {
            var simulator = await SimulatorHost.StartAsync(Options(settings, new Uri(azurite.TableEndpoint)), cancellationToken);
            return new ThrottledService(azurite, simulator);
        }
        catch
        {
            await azurite.DisposeAsync();
            throw;
        }
    }

    /// <summary>One second of burst, as Cosmos DB allows; no injected faults, so every refusal is a 429 of the budget.</summary>
    private static SimulatorOptions Options(BenchSettings settings, Uri upstream) => new()
    {
        Upstream = upstream,
        RuPerSecond = settings.Budget,
        BurstSeconds = 1,
        RuPerKilobyte = settings.RuPerKilobyte,
    };

    public async ValueTask DisposeAsync()
    {
        await Simulator.DisposeAsync();
        await Azurite.DisposeAsync();
    }
}
