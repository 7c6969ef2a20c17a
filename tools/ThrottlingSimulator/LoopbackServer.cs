using System.Net;
using System.Security.Cryptography.X509Certificates;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// The Kestrel server and the upstream client of a test proxy (the throttling simulator, the Cosmos DB stand-in):
/// one request handler on one address, HTTP or, with a certificate, HTTPS.
/// </summary>
public static class LoopbackServer
{
    /// <summary>
    /// Starts listening on <paramref name="host"/>:<paramref name="port"/> (0: a free port); the server owns
    /// <paramref name="upstream"/> and disposes it when it stops, or at once if it cannot start.
    /// </summary>
    public static async Task<RunningServer> StartAsync(
        string host, int port, X509Certificate2? certificate, HttpClient upstream, RequestDelegate handler, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(upstream);
        // The empty builder reads no configuration files or environment and logs nothing: a test fixture
        // should behave the same wherever it runs, and every answer it gives is visible to its client anyway.
        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions { ContentRootPath = AppContext.BaseDirectory });
        builder.WebHost.UseKestrelCore().ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            kestrel.Limits.MaxRequestBodySize = null; // the handlers answer oversize requests as their service does
            kestrel.Listen(ListenAddress(host), port, listen =>
            {
                if (certificate is not null)
                {
                    listen.UseHttps(certificate);
                }
            });
        });

        var app = builder.Build();
        app.Run(handler);
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
        var endpoint = new UriBuilder(bound) { Scheme = certificate is null ? Uri.UriSchemeHttp : Uri.UriSchemeHttps, Host = ClientHost(host), Path = "/" }.Uri;
        return new RunningServer(app, upstream, endpoint);
    }

    /// <summary>A client for the upstream service: no proxy, cookies, redirects or decompression; the caller's cancellation is its only time limit.</summary>
    public static HttpClient CreateUpstreamClient() =>
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

/// <summary>A started <see cref="LoopbackServer"/>: where clients reach it; disposing stops it and its upstream client.</summary>
public sealed class RunningServer(WebApplication app, HttpClient upstream, Uri endpoint) : IAsyncDisposable
{
    public Uri Endpoint => endpoint;

    /// <summary>Runs until <paramref name="cancellationToken"/> fires or the process is asked to stop.</summary>
    public Task WaitForShutdownAsync(CancellationToken cancellationToken = default) => app.WaitForShutdownAsync(cancellationToken);

    public async ValueTask DisposeAsync()
    {
        await app.StopAsync();
        await app.DisposeAsync();
        upstream.Dispose();
    }
}
