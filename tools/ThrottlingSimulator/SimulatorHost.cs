using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// A running simulator: Kestrel on <see cref="Endpoint"/> in front of the upstream service. Start it from a
/// test with <see cref="StartAsync(SimulatorOptions, CancellationToken)"/>, or as a process through the command line.
/// </summary>
public sealed class SimulatorHost : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly HttpClient _upstream;
    private readonly RequestBudget _budget;

    private SimulatorHost(WebApplication app, HttpClient upstream, RequestBudget budget, SimulatorOptions options, SimulatorStats stats, Uri endpoint)
    {
        _app = app;
        _upstream = upstream;
        _budget = budget;
        Options = options;
        Stats = stats;
        Endpoint = endpoint;
    }

    public SimulatorOptions Options { get; }

    /// <summary>The live counters.</summary>
    public SimulatorStats Stats { get; }

    /// <summary>Where clients reach the simulator, such as <c>http://127.0.0.1:10102/</c>.</summary>
    public Uri Endpoint { get; }

    public int Port => Endpoint.Port;

    /// <summary>The Table endpoint of an account behind the simulator, for a connection string's <c>TableEndpoint</c>.</summary>
    public Uri TableEndpoint(string account = "devstoreaccount1") => new(Endpoint, account);

    public static Task<SimulatorHost> StartAsync(SimulatorOptions options, CancellationToken cancellationToken = default) =>
        StartAsync(options, TimeProvider.System, cancellationToken);

    /// <summary>Starts listening; <paramref name="timeProvider"/> drives the buckets, the added latency and the error timestamps.</summary>
    public static async Task<SimulatorHost> StartAsync(SimulatorOptions options, TimeProvider timeProvider, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(timeProvider);
        options.Validate();

        var stats = new SimulatorStats();
        var budget = new RequestBudget(options.RuPerSecond, options.PartitionRuPerSecond, options.BurstSeconds, timeProvider);
        var upstream = CreateUpstreamClient();
        var proxy = new ProxyEndpoint(options.Upstream, upstream, budget, new FaultInjector(options), stats, options.RuPerKilobyte, options.Instant, timeProvider);
        var admin = new StatsEndpoint(stats, () => Reset(stats, budget));

        // The empty builder reads no configuration files or environment and logs nothing: a test fixture
        // should behave the same wherever it runs, and every answer it gives is visible to its client anyway.
        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions { ContentRootPath = AppContext.BaseDirectory });
        builder.WebHost.UseKestrelCore().ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            kestrel.Listen(ListenAddress(options.Host), options.Port);
        });

        var app = builder.Build();
        app.Run(async context =>
        {
            if (!await admin.TryHandleAsync(context))
            {
                await proxy.HandleAsync(context);
            }
        });

        try
        {
            await app.StartAsync(cancellationToken);
        }
        catch
        {
            await app.DisposeAsync();
            upstream.Dispose();
            throw;
        }

        var bound = app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.First();
        var endpoint = new UriBuilder(bound) { Host = ClientHost(options.Host), Path = "/" }.Uri;
        return new SimulatorHost(app, upstream, budget, options, stats, endpoint);
    }

    /// <summary>Zeroes the counters and fills the buckets, as <c>POST /_simulator/reset</c> does.</summary>
    public void Reset() => Reset(Stats, _budget);

    /// <summary>Runs until <paramref name="cancellationToken"/> fires or the process is asked to stop.</summary>
    public Task WaitForShutdownAsync(CancellationToken cancellationToken = default) => _app.WaitForShutdownAsync(cancellationToken);

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
        _upstream.Dispose();
    }

    private static void Reset(SimulatorStats stats, RequestBudget budget)
    {
        stats.Reset();
        budget.Fill();
    }

    private static HttpClient CreateUpstreamClient() =>
        new(new SocketsHttpHandler
        {
            UseProxy = false,
            UseCookies = false,
            AllowAutoRedirect = false,
            AutomaticDecompression = DecompressionMethods.None,
            PooledConnectionLifetime = TimeSpan.FromMinutes(5),
            ConnectTimeout = TimeSpan.FromSeconds(10),
        })
        {
            // The client's own timeout aborts its request, and with it the forwarded one.
            Timeout = Timeout.InfiniteTimeSpan,
        };

    private static IPAddress ListenAddress(string host) => host switch
    {
        "localhost" => IPAddress.Loopback,
        "*" or "+" => IPAddress.Any,
        _ => IPAddress.TryParse(host, out var address) ? address : throw new ArgumentException($"--host '{host}' is not an IP address."),
    };

    /// <summary>A wildcard listener is reached through loopback from this machine.</summary>
    private static string ClientHost(string host)
    {
        var address = ListenAddress(host);
        return address.Equals(IPAddress.Any) || address.Equals(IPAddress.IPv6Any) ? "127.0.0.1" : address.ToString();
    }
}
