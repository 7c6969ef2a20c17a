using System.Net;
using Azure.Core;
using Azure.Core.Pipeline;
using Loader.Abstractions;
using Loader.Worker.Backends.Tables;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>
/// Each way of signing in reaches the service as it should: Entra ID tokens for the audience of the endpoint's
/// service (Storage or Cosmos DB for Table), a shared access signature on the URL and no Authorization header, with
/// either writer; an account key signs a shared access signature for the Direct writer, renewed before it expires.
/// The endpoints are named, never reached: a handler stands in for the network and records the requests. (Entra ID
/// itself cannot run here: a recording credential stands in for it.)
/// </summary>
public sealed class TableClientFactoryTests
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Theory]
    [InlineData("https://acme.table.core.windows.net", "https://storage.azure.com/.default", "Direct")]
    [InlineData("https://acme.table.cosmos.azure.com", "https://cosmos.azure.com/.default", "Direct")]
    [InlineData("https://acme.table.core.usgovcloudapi.net", "https://storage.azure.us/.default", "Direct")]
    [InlineData("https://acme.table.core.chinacloudapi.cn", "https://storage.azure.cn/.default", "Direct")]
    [InlineData("https://acme.table.core.windows.net", "https://storage.azure.com/.default", "Sdk")]
    [InlineData("https://acme.table.cosmos.azure.com", "https://cosmos.azure.com/.default", "Sdk")]
    [InlineData("https://acme.table.core.usgovcloudapi.net", "https://storage.azure.us/.default", "Sdk")]
    [InlineData("https://acme.table.core.chinacloudapi.cn", "https://storage.azure.cn/.default", "Sdk")]
    public async Task A_token_is_asked_for_the_audience_of_the_endpoints_service(string endpoint, string scope, string writer)
    {
        var credential = new RecordingCredential();
        var handler = new RecordingHandler();

        var adapter = Adapter(new TablesOptions { Endpoint = endpoint, Table = "flights", Writer = Enum.Parse<TableWriter>(writer) }, handler, () => credential);
        var outcome = await adapter.WriteBatchAsync(Batch(), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        Assert.Equal([scope], credential.Scopes);
        Assert.Equal("Bearer token-for-" + scope, handler.Authorization);
    }

    [Theory]
    [InlineData("Direct")]
    [InlineData("Sdk")]
    public async Task A_shared_access_signature_on_the_endpoint_goes_on_every_request_and_signs_nothing_else(string writer)
    {
        var handler = new RecordingHandler();

        var adapter = Adapter(
            new TablesOptions { Endpoint = "https://acme.table.core.windows.net/?sv=2024-08-04&ss=t&sig=c2lnbmF0dXJl", Table = "flights", Writer = Enum.Parse<TableWriter>(writer) },
            handler,
            () => throw new InvalidOperationException("a SAS needs no credential"));
        var outcome = await adapter.WriteBatchAsync(Batch(), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        Assert.Contains("sig=c2lnbmF0dXJl", handler.Uri!.Query, StringComparison.Ordinal);
        Assert.Equal("/$batch", handler.Uri.AbsolutePath);
        Assert.Null(handler.Authorization);
    }

    [Fact]
    public async Task An_account_key_signs_a_shared_access_signature_that_is_renewed_before_it_expires_and_no_request_carries_the_keys_hmac()
    {
        var handler = new RecordingHandler();
        var clock = new FakeTimeProvider(new DateTimeOffset(2026, 11, 25, 6, 0, 0, TimeSpan.Zero));
        var tables = new TablesOptions { ConnectionString = Infrastructure.AzuriteProcess.ConnectionStringAt("https://acme.table.core.windows.net"), Table = "flights" };

        var adapter = Adapter(tables, handler, () => throw new InvalidOperationException("a key needs no credential"), clock);
        async Task<string> ExpiryAsync()
        {
            Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(Batch(), _cancellation)).Status);
            Assert.Null(handler.Authorization);
            Assert.Contains("sig=", handler.Uri!.Query, StringComparison.Ordinal);
            return System.Web.HttpUtility.ParseQueryString(handler.Uri.Query)["se"]!;
        }

        var first = await ExpiryAsync();
        clock.Advance(TableSignature.Lifetime - TableSignature.RenewBefore - TimeSpan.FromMinutes(1));
        var later = await ExpiryAsync();
        clock.Advance(TimeSpan.FromMinutes(2));
        var renewed = await ExpiryAsync();

        Assert.Equal("2026-11-25T07:00:00Z", first);
        Assert.Equal(first, later);
        Assert.Equal("2026-11-25T07:41:00Z", renewed);
    }

    [Fact]
    public void The_endpoint_a_checkpoint_names_carries_no_signature()
    {
        var options = new TablesOptions { Endpoint = "https://acme.table.core.windows.net/?sv=2024-08-04&sig=c2lnbmF0dXJl", Table = "flights" };

        Assert.Equal("https://acme.table.core.windows.net/", options.ServiceEndpoint().AbsoluteUri);
    }

    [Theory]
    [InlineData("AccountName=acme;AccountKey=s3cr3t!!notbase64")]
    [InlineData("AccountName=acme;s3cr3tsegment")]
    [InlineData("garbage-s3cr3t")]
    public void An_unreadable_connection_string_is_described_without_quoting_it(string connectionString)
    {
        var problem = TablesOptions.CheckConnectionString(connectionString, out var endpoint);

        Assert.Null(endpoint);
        Assert.NotNull(problem);
        Assert.DoesNotContain("s3cr3t", problem, StringComparison.Ordinal);
    }

    private static EntityBatch Batch() =>
        new("p", [new LoadEntity("p", "r", [EntityProperty.FromString("d", "x")], new RowOrigin(1, 2))], WriteMode.Upsert);

    private static TablesAdapter Adapter(TablesOptions tables, RecordingHandler handler, Func<TokenCredential> credential, TimeProvider? clock = null)
    {
        var options = Options(handler);
        var client = TableClientFactory.Create(tables, options, credential);
        var sender = TableClientFactory.CreateSender(tables, client, options, credential, clock ?? TimeProvider.System);
        Assert.Equal(tables.Writer == TableWriter.Direct && !TableClientFactory.IsCosmos(tables.ServiceEndpoint()), sender is not null);
        return new TablesAdapter(client, createTable: false, clock ?? TimeProvider.System, sender);
    }

    private static Azure.Data.Tables.TableClientOptions Options(RecordingHandler handler)
    {
        var options = TableClientFactory.Options(16, TimeSpan.FromSeconds(30));
        options.Transport = new HttpClientTransport(handler);
        return options;
    }

    private sealed class RecordingCredential : TokenCredential
    {
        public List<string> Scopes { get; } = [];

        public override AccessToken GetToken(TokenRequestContext requestContext, CancellationToken cancellationToken)
        {
            Scopes.AddRange(requestContext.Scopes);
            return new AccessToken("token-for-" + string.Join(" ", requestContext.Scopes), DateTimeOffset.UtcNow.AddHours(1));
        }

        public override ValueTask<AccessToken> GetTokenAsync(TokenRequestContext requestContext, CancellationToken cancellationToken) =>
            ValueTask.FromResult(GetToken(requestContext, cancellationToken));
    }

    /// <summary>Records the request and answers as the service does to a one-operation transaction.</summary>
    private sealed class RecordingHandler : HttpMessageHandler
    {
        public Uri? Uri { get; private set; }

        public string? Authorization { get; private set; }

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Uri = request.RequestUri;
            Authorization = request.Headers.Authorization?.ToString();
            var body = "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_2\r\n\r\n"
                + "--changesetresponse_2\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\nDataServiceVersion: 1.0;\r\n\r\n--changesetresponse_2--\r\n--batchresponse_1--\r\n";
            var response = new HttpResponseMessage(HttpStatusCode.Accepted) { Content = new StringContent(body) };
            response.Content.Headers.Remove("Content-Type");
            response.Content.Headers.TryAddWithoutValidation("Content-Type", "multipart/mixed; boundary=batchresponse_1");
            return Task.FromResult(response);
        }
    }
}
