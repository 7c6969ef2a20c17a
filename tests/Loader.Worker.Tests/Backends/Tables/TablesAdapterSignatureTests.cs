using Azure.Data.Tables;
using Azure.Data.Tables.Sas;
using Loader.Abstractions;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>
/// A shared access signature the settings give signs the batches on a real Azurite, on the endpoint's URL or in a
/// connection string, with either writer (the account key's own path is the contract tests').
/// </summary>
public sealed class TablesAdapterSignatureTests(AzuriteFixture azurite)
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(true, "Direct")]
    [InlineData(false, "Direct")]
    [InlineData(true, "Sdk")]
    [InlineData(false, "Sdk")]
    public async Task A_given_shared_access_signature_signs_the_batches(bool onTheEndpoint, string writerName)
    {
        var writer = Enum.Parse<TableWriter>(writerName);
        var table = AzuriteFixture.UniqueTableName("sas");
        await new TableClient(azurite.ConnectionString, table).CreateAsync(_cancellation);
        var signature = new TableServiceClient(azurite.ConnectionString)
            .GenerateSasUri(TableAccountSasPermissions.All, TableAccountSasResourceTypes.All, DateTimeOffset.UtcNow.AddHours(1))
            .Query.TrimStart('?');
        var tables = onTheEndpoint
            ? new TablesOptions { Endpoint = azurite.Azurite.TableEndpoint + "?" + signature, Table = table, Writer = writer }
            : new TablesOptions { ConnectionString = $"TableEndpoint={azurite.Azurite.TableEndpoint};SharedAccessSignature={signature}", Table = table, Writer = writer };
        var options = TableClientFactory.Options(16, TimeSpan.FromSeconds(30));
        var client = TableClientFactory.Create(tables, options, () => throw new InvalidOperationException("a SAS needs no credential"));
        var sender = TableClientFactory.CreateSender(tables, client, options, () => throw new InvalidOperationException("a SAS needs no credential"), TimeProvider.System);
        Assert.Equal(writer == TableWriter.Direct, sender is not null);
        var adapter = new TablesAdapter(client, createTable: false, TimeProvider.System, sender);

        var outcome = await adapter.WriteBatchAsync(
            new EntityBatch("p", [new LoadEntity("p", "r", [EntityProperty.FromString("d", "x")], new RowOrigin(1, 2))], WriteMode.Upsert),
            _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal("x", stored[("p", "r")].Properties["d"]);
    }
}
