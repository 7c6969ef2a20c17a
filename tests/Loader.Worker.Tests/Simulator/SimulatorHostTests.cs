using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using Loader.ThrottlingSimulator;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Simulator;

public sealed class SimulatorHostTests(AzuriteFixture azurite)
{
    private static readonly HttpClient Http = new();
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Fact]
    public async Task Starts_on_a_free_loopback_port_and_stops_listening_when_disposed()
    {
        var simulator = await SimulatorHost.StartAsync(new SimulatorOptions { Upstream = new Uri(azurite.Azurite.TableEndpoint) }, _cancellation);
        var port = simulator.Port;

        Assert.NotEqual(0, port);
        Assert.Equal(new Uri($"http://127.0.0.1:{port}/"), simulator.Endpoint);
        Assert.Equal(new Uri($"http://127.0.0.1:{port}/devstoreaccount1"), simulator.TableEndpoint());
        using (var response = await Http.GetAsync(new Uri(simulator.Endpoint, "_simulator/stats"), _cancellation))
        {
            Assert.True(response.IsSuccessStatusCode);
        }

        await simulator.DisposeAsync();

        using var probe = new TcpClient();
        await Assert.ThrowsAnyAsync<SocketException>(async () => await probe.ConnectAsync("127.0.0.1", port, _cancellation));
    }

    [Fact]
    public async Task Refuses_invalid_options_before_listening()
    {
        await Assert.ThrowsAsync<ArgumentException>(() => SimulatorHost.StartAsync(new SimulatorOptions { DropRate = 2 }, _cancellation));
        await Assert.ThrowsAsync<ArgumentException>(() => SimulatorHost.StartAsync(new SimulatorOptions { Host = "not-an-address" }, _cancellation));
    }

    [Fact]
    public async Task The_command_line_prints_its_address_and_serves_until_stopped()
    {
        var port = AzuriteProcess.FreePort();
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[]
        {
            Path.Combine(AppContext.BaseDirectory, "ThrottlingSimulator.dll"),
            "--upstream", $"http://127.0.0.1:{azurite.Azurite.TablePort}", "--port", port.ToString(CultureInfo.InvariantCulture),
            "--ru-per-second", "5000", "--seed", "1",
        })
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        try
        {
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(_cancellation);
            timeout.CancelAfter(TimeSpan.FromSeconds(30));
            var line = await process.StandardOutput.ReadLineAsync(timeout.Token);

            Assert.Equal($"ThrottlingSimulator listening on http://127.0.0.1:{port}/ -> http://127.0.0.1:{azurite.Azurite.TablePort}/", line);
            var stats = await Http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/_simulator/stats"), _cancellation);
            Assert.Contains("\"requests\":0", stats, StringComparison.Ordinal);
        }
        finally
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(_cancellation);
        }
    }

    [Fact]
    public async Task The_command_line_explains_a_bad_option_and_exits_with_2()
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "ThrottlingSimulator.dll"));
        start.ArgumentList.Add("--drop-rate");
        start.ArgumentList.Add("3");

        using var process = Process.Start(start)!;
        var error = await process.StandardError.ReadToEndAsync(_cancellation);
        await process.WaitForExitAsync(_cancellation);

        Assert.Equal(2, process.ExitCode);
        Assert.Contains("--drop-rate", error, StringComparison.Ordinal);
        Assert.Contains("Usage:", error, StringComparison.Ordinal);
    }
}
