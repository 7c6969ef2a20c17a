using Azure.Data.Tables;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Configuration;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Benchmarks;

/// <summary>The flights table of an Azurite, reached as the loader reaches it, for the baselines that write from this process.</summary>
internal static class AzuriteTables
{
    /// <summary>
    /// A client and the loader's Tables adapter on <paramref name="azurite"/>'s flights table, created: the connection
    /// pool sized as the loader sizes it for <paramref name="inFlight"/> requests, the loader's default writer.
    /// </summary>
    public static async Task<(TableClient Client, TablesAdapter Adapter)> ConnectAsync(AzuriteProcess azurite, int inFlight, CancellationToken cancellationToken)
    {
        var tables = new TablesOptions { ConnectionString = azurite.ConnectionString, Table = FlightSchema.Table };
        var options = TableClientFactory.Options(Math.Max(64, inFlight * 2), new RetryOptions().AttemptTimeout);
        Func<Azure.Core.TokenCredential> noCredential = () => throw new InvalidOperationException("the benchmark signs in with the emulator's key");
        var client = TableClientFactory.Create(tables, options, noCredential);
        var adapter = new TablesAdapter(client, createTable: false, TimeProvider.System, TableClientFactory.CreateSender(tables, client, options, noCredential, TimeProvider.System));
        await client.CreateIfNotExistsAsync(cancellationToken);
        return (client, adapter);
    }
}
