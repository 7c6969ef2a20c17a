using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Azure.Core;
using Azure.Core.Pipeline;
using Azure.Data.Tables;
using Loader.Abstractions;
using Loader.Worker.Backends.Tables;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>
/// The transaction body the Direct writer sends (<see cref="TableTransactionBody"/>) carries what the SDK's own
/// <c>SubmitTransactionAsync</c> sends for the same rows: the same operations in the same order, on the same keys, with
/// the same conditions, properties, values and EDM types. Both bodies are caught before they leave and parsed; they
/// are compared as parsed, not byte for byte (the SDK escapes non-ASCII text, names a format on each URL, orders
/// annotations its own way, and writes Merge as PATCH where the Direct writer writes the protocol's MERGE).
/// </summary>
public sealed class TableTransactionBodyTests
{
    private const string Endpoint = "http://127.0.0.1:10002/devstoreaccount1";

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    public static TheoryData<WriteMode> Modes => new(Enum.GetValues<WriteMode>());

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task The_direct_body_carries_the_operations_keys_and_typed_properties_the_SDK_sends(WriteMode mode)
    {
        var batch = new EntityBatch("p'x é/?#%", Rows("p'x é/?#%", keysOnly: mode == WriteMode.Delete), mode);

        var sdk = Parse(await CaptureAsync(batch, TableWriter.Sdk));
        var direct = Parse(await CaptureAsync(batch, TableWriter.Direct));

        Assert.Equal(batch.Entities.Count, sdk.Count);
        Assert.Equal(sdk.Count, direct.Count);
        for (var i = 0; i < sdk.Count; i++)
        {
            Assert.Equal(sdk[i].Method, direct[i].Method);
            Assert.Equal(sdk[i].Keys, direct[i].Keys);
            Assert.Equal(sdk[i].IfMatch, direct[i].IfMatch);
            Assert.Equal(sdk[i].ReturnNoContent, direct[i].ReturnNoContent);
            Assert.Equal(sdk[i].Properties, direct[i].Properties);
        }
    }

    /// <summary>Every EDM type the loader writes, at its edges, and strings that need escaping in JSON or in a URL.</summary>
    private static LoadEntity[] Rows(string partitionKey, bool keysOnly)
    {
        EntityProperty[][] rows =
        [
            [
                EntityProperty.FromString("unicode", "Zürich 東京 ✈ 𝄞"), EntityProperty.FromString("quotes", "it's \"quoted\" \\ back/slash"),
                EntityProperty.FromString("controls", "tab\there\r\nline\u0001"), EntityProperty.FromString("empty", ""),
                EntityProperty.FromString("long", new string('x', 32_000)), EntityProperty.FromString("html", "<b>&amp;</b> +%20"),
            ],
            [
                EntityProperty.FromInt32("i32min", int.MinValue), EntityProperty.FromInt32("i32max", int.MaxValue), EntityProperty.FromInt32("zero", 0),
                EntityProperty.FromInt64("i64min", long.MinValue), EntityProperty.FromInt64("i64max", long.MaxValue), EntityProperty.FromInt64("small", 5),
                EntityProperty.FromBoolean("yes", true), EntityProperty.FromBoolean("no", false),
            ],
            [
                EntityProperty.FromDouble("integral", 5.0), EntityProperty.FromDouble("third", 1 / 3.0), EntityProperty.FromDouble("tiny", 4.9e-324),
                EntityProperty.FromDouble("huge", double.MaxValue), EntityProperty.FromDouble("negative", -1e300),
                EntityProperty.FromDouble("plusInfinity", double.PositiveInfinity), EntityProperty.FromDouble("minusInfinity", double.NegativeInfinity),
            ],
            [
                EntityProperty.FromDateTime("min", new DateTime(1601, 1, 1, 0, 0, 0, DateTimeKind.Utc)),
                EntityProperty.FromDateTime("max", DateTime.SpecifyKind(DateTime.MaxValue, DateTimeKind.Utc)),
                EntityProperty.FromDateTime("ticks", new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567)),
                EntityProperty.FromGuid("guid", Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e")), EntityProperty.FromGuid("emptyGuid", Guid.Empty),
                EntityProperty.FromJson("json", "{\"a\":[1,2]}"),
            ],
        ];

        string[] rowKeys = ["plain-1", "O'Brien ''twice''", "slash/hash#?query&amp", "ключ €"];
        return [.. rows.Select((properties, i) => new LoadEntity(partitionKey, rowKeys[i], keysOnly ? [] : properties, new RowOrigin(i + 1, i + 2)))];
    }

    private async Task<string> CaptureAsync(EntityBatch batch, TableWriter writer)
    {
        var capture = new CapturingHandler();
        var options = new TableClientOptions { Transport = new HttpClientTransport(capture) };
        options.Retry.MaxRetries = 0;
        var tables = new TablesOptions { ConnectionString = Infrastructure.AzuriteProcess.ConnectionStringAt(Endpoint), Table = "flights", Writer = writer };
        Func<TokenCredential> noCredential = () => throw new InvalidOperationException("no credential here");
        var client = TableClientFactory.Create(tables, options, noCredential);
        var sender = TableClientFactory.CreateSender(tables, client, options, noCredential, TimeProvider.System);
        Assert.Equal(writer == TableWriter.Direct, sender is not null);

        await new TablesAdapter(client, createTable: false, TimeProvider.System, sender).WriteBatchAsync(batch, _cancellation);
        return capture.Body ?? throw new InvalidOperationException("nothing was sent");
    }

    /// <summary>The change set's operations, each as its method, keys, conditions and body's properties (name: JSON kind and value).</summary>
    private static List<Operation> Parse(string body)
    {
        var changeset = body[(body.IndexOf("boundary=changeset_", StringComparison.Ordinal) + "boundary=".Length)..];
        changeset = changeset[..changeset.IndexOf("\r\n", StringComparison.Ordinal)];
        var operations = new List<Operation>();
        foreach (var part in body.Split("--" + changeset).Skip(1))
        {
            if (part.StartsWith("--", StringComparison.Ordinal))
            {
                break;
            }

            // Part headers, a blank line, the request line and its headers, a blank line, the entity's JSON.
            var request = part[(part.IndexOf("\r\n\r\n", StringComparison.Ordinal) + 4)..];
            var headerEnd = request.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            var lines = request[..headerEnd].Split("\r\n");
            var json = request[(headerEnd + 4)..].Trim();
            var requestLine = lines[0].Split(' ');
            var headers = lines.Skip(1).Select(line => line.Split(": ", 2)).ToDictionary(pair => pair[0], pair => pair[1], StringComparer.OrdinalIgnoreCase);
            var properties = json.Length == 0 ? new SortedDictionary<string, string>(StringComparer.Ordinal) : Properties(json);
            var method = requestLine[0] == "PATCH" ? "MERGE" : requestLine[0];
            operations.Add(new Operation(
                method,
                Keys(requestLine[1], properties),
                headers.GetValueOrDefault("If-Match"),
                headers.GetValueOrDefault("Prefer") == "return-no-content",
                string.Join("\n", properties.Select(property => $"{property.Key} = {property.Value}"))));
        }

        return operations;
    }

    /// <summary>The keys from the URL (<c>...(PartitionKey='..',RowKey='..')</c>, percent- and quote-decoded), else from the body.</summary>
    private static string Keys(string url, SortedDictionary<string, string> properties)
    {
        var path = new Uri(url).AbsolutePath;
        var open = path.IndexOf("(PartitionKey='", StringComparison.Ordinal);
        if (open < 0)
        {
            return $"{path} {properties["PartitionKey"]} | {properties["RowKey"]}";
        }

        var keys = Uri.UnescapeDataString(path[open..]);
        var rowKeyAt = keys.IndexOf("',RowKey='", StringComparison.Ordinal);
        var partitionKey = keys["(PartitionKey='".Length..rowKeyAt].Replace("''", "'", StringComparison.Ordinal);
        var rowKey = keys[(rowKeyAt + "',RowKey='".Length)..^"')".Length].Replace("''", "'", StringComparison.Ordinal);
        return $"{path[..open]} string: {partitionKey} | string: {rowKey}";
    }

    private static SortedDictionary<string, string> Properties(string json)
    {
        using var document = JsonDocument.Parse(json);
        var properties = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var property in document.RootElement.EnumerateObject())
        {
            properties[property.Name] = property.Value.ValueKind switch
            {
                JsonValueKind.String => "string: " + property.Value.GetString(),
                JsonValueKind.Number => "number: " + property.Value.GetDouble().ToString("R", CultureInfo.InvariantCulture),
                var kind => kind.ToString(),
            };
        }

        return properties;
    }

    private sealed record Operation(string Method, string Keys, string? IfMatch, bool ReturnNoContent, string Properties);

    /// <summary>Keeps the request body and answers 400: the body is all the test wants.</summary>
    private sealed class CapturingHandler : HttpMessageHandler
    {
        public string? Body { get; private set; }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Body = Encoding.UTF8.GetString(await request.Content!.ReadAsByteArrayAsync(cancellationToken));
            return new HttpResponseMessage(HttpStatusCode.BadRequest) { Content = new StringContent("") };
        }
    }
}
