using Loader.Worker.Backends.Tables;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;

namespace Loader.Worker.Tests.Hosting;

/// <summary>
/// <c>Loader:Tables:Writer</c> picks how the Tables adapter sends batches: Direct by default, the SDK's own
/// <c>SubmitTransactionAsync</c> when set to Sdk, and the SDK's always on a Cosmos DB for Table endpoint. Nothing is sent.
/// </summary>
public sealed class BackendFactoryTests
{
    private const string Key = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    [Theory]
    [InlineData(null, "AccountName=acme;AccountKey=" + Key + ";EndpointSuffix=core.windows.net", "Direct")]
    [InlineData("Sdk", "AccountName=acme;AccountKey=" + Key + ";EndpointSuffix=core.windows.net", "Sdk")]
    [InlineData("Direct", "UseDevelopmentStorage=true", "Direct")]
    [InlineData("Direct", "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + Key + ";TableEndpoint=https://acme.table.cosmos.azure.com:443/", "Sdk")]
    public async Task The_writer_setting_picks_how_batches_are_sent(string? writer, string connectionString, string expected)
    {
        var tables = new TablesOptions { ConnectionString = connectionString, Table = "flights" };
        if (writer is not null)
        {
            tables.Writer = Enum.Parse<TableWriter>(writer);
        }

        await using var adapter = BackendFactory.Create(new LoaderOptions { Backend = BackendKind.Tables, Tables = tables }, TimeProvider.System);

        Assert.Equal(Enum.Parse<TableWriter>(expected), Assert.IsType<TablesAdapter>(adapter).Writer);
    }
}
