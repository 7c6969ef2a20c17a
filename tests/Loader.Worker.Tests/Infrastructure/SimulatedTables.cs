using Loader.ThrottlingSimulator;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// The throttling simulator (tools/ThrottlingSimulator) started in-process in front of the tests' Azurite for one test:
/// the connection string that goes through it, and rows it charges about 5 RU each.
/// </summary>
public sealed class SimulatedTables(AzuriteFixture azurite) : IAsyncDisposable
{
    private SimulatorHost? _simulator;

    public SimulatorHost Simulator => _simulator ?? throw new InvalidOperationException("the simulator has not been started");

    /// <summary>Azurite's connection string with the simulator's endpoint in place of Azurite's.</summary>
    public string ConnectionString =>
        azurite.ConnectionString.Replace(azurite.Azurite.TableEndpoint, Simulator.TableEndpoint().AbsoluteUri.TrimEnd('/'), StringComparison.Ordinal);

    /// <summary>Starts the simulator with <paramref name="options"/>, forwarding to the tests' Azurite.</summary>
    public async Task<SimulatorHost> StartAsync(SimulatorOptions options, CancellationToken cancellationToken) =>
        _simulator = await SimulatorHost.StartAsync(options with { Upstream = new Uri(azurite.Azurite.TableEndpoint) }, cancellationToken);

    /// <summary>A CSV of <c>pk</c>, <c>rk</c> and a 200-character <c>v</c>: one started kilobyte a row, 5 RU in the simulator's cost model.</summary>
    public static string Rows(int count, Func<int, string> partition)
    {
        var csv = new CsvText("pk", "rk", "v");
        for (var i = 0; i < count; i++)
        {
            csv.Row(partition(i), $"r{i:D6}", new string('x', 200));
        }

        return csv.ToString();
    }

    public async ValueTask DisposeAsync()
    {
        if (_simulator is not null)
        {
            await _simulator.DisposeAsync();
        }
    }
}
