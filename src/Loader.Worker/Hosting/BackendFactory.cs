using Azure.Core;
using Azure.Identity;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Backends.DryRun;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Configuration;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Loader.Worker.Hosting;

/// <summary>Creates the adapter the settings ask for; a dry run wraps it so its rules apply but nothing is sent.</summary>
internal static class BackendFactory
{
    public static IBackendAdapter Create(LoaderOptions options, TimeProvider timeProvider, ILoggerFactory? loggerFactory = null)
    {
        IBackendAdapter adapter = options.Backend switch
        {
            BackendKind.Tables => CreateTables(options, timeProvider),
            BackendKind.Cosmos => CreateCosmos(options.Cosmos, options.MaxParallelBatches, options.Retry.AttemptTimeout, timeProvider, loggerFactory),
            _ => throw new NotSupportedException($"Loader:Backend '{options.Backend}' is not available."),
        };

        return options.DryRun ? new DryRunAdapter(adapter) : adapter;
    }

    /// <summary>The Cosmos DB adapter on its own client, which it disposes.</summary>
    internal static CosmosAdapter CreateCosmos(CosmosOptions cosmos, int maxParallelBatches, TimeSpan attemptTimeout, TimeProvider timeProvider, ILoggerFactory? loggerFactory = null)
    {
        var logger = (loggerFactory ?? NullLoggerFactory.Instance).CreateLogger<CosmosAdapter>();
        var client = CosmosClientFactory.Create(cosmos, maxParallelBatches, attemptTimeout);
        return new CosmosAdapter(
            client.GetContainer(cosmos.Database, cosmos.Container),
            cosmos,
            timeProvider,
            cancellationToken => CosmosTarget.PrepareAsync(client, cosmos, logger, cancellationToken),
            new DisposableClient(client));
    }

    private sealed class DisposableClient(IDisposable client) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            client.Dispose();
            return ValueTask.CompletedTask;
        }
    }

    private static TablesAdapter CreateTables(LoaderOptions options, TimeProvider timeProvider)
    {
        var tables = options.Tables;
        var clientOptions = TableClientFactory.Options(Math.Max(64, options.MaxParallelBatches * 2), options.Retry.AttemptTimeout);
        var credential = new Lazy<TokenCredential>(() => new DefaultAzureCredential());
        var client = TableClientFactory.Create(tables, clientOptions, () => credential.Value);
        var sender = TableClientFactory.CreateSender(tables, client, clientOptions, () => credential.Value, timeProvider);
        return new TablesAdapter(client, tables.CreateTable, timeProvider, sender);
    }
}
