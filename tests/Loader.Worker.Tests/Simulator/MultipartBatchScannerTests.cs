using System.Text;
using Loader.Abstractions;
using Loader.ThrottlingSimulator;
using static Loader.Worker.Tests.Simulator.SimulatorBatches;

namespace Loader.Worker.Tests.Simulator;

public sealed class MultipartBatchScannerTests
{
    [Theory]
    [InlineData(WriteMode.Upsert, "PUT")]
    [InlineData(WriteMode.Merge, "PATCH")] // the SDK merges with PATCH (Cosmos DB for Table: its policy turns it into MERGE)
    [InlineData(WriteMode.Insert, "POST")]
    public void Counts_and_sizes_the_operations_of_a_loader_batch(WriteMode mode, string method)
    {
        LoadEntity[] entities = [Entity("p", "a", 0), Entity("p", "b", 1016), Entity("p", "c", 1017), Entity("p", "d", 5000)];

        var scan = MultipartBatchScanner.Scan(Body(Batch(mode, entities)));

        Assert.Equal(entities.Select(entity => BodyBytes(entity)), scan.Operations.Select(operation => operation.BodyBytes));
        Assert.All(scan.Operations, operation => Assert.Equal(method, operation.Method));
        Assert.Equal("p", scan.PartitionKey);
        if (mode != WriteMode.Insert)
        {
            // The SDK adds a $format query to each operation's URL.
            Assert.Contains("/devstoreaccount1/flights(PartitionKey='p',RowKey='c')", scan.Operations[2].Url, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(WriteMode.Upsert, "PUT")]
    [InlineData(WriteMode.Merge, "MERGE")]
    [InlineData(WriteMode.Insert, "POST")]
    public void Counts_sizes_and_keys_the_operations_of_a_direct_writers_batch(WriteMode mode, string method)
    {
        const string Key = "O'Brien 100% Zürich";
        LoadEntity[] entities = [Entity(Key, "a", 0), Entity(Key, "b", 1016), Entity(Key, "c", 5000)];

        var scan = MultipartBatchScanner.Scan(Body(Batch(mode, entities), writer: Worker.Backends.Tables.TableWriter.Direct));

        Assert.Equal(entities.Select(entity => BodyBytes(entity) - (Encoding.UTF8.GetByteCount(JsonEncodedKey(Key)) - Encoding.UTF8.GetByteCount(Key))), scan.Operations.Select(operation => operation.BodyBytes));
        Assert.All(scan.Operations, operation => Assert.Equal(method, operation.Method));
        Assert.Equal(Key, scan.PartitionKey);
    }

    [Fact]
    public void Counts_a_full_batch_of_a_hundred()
    {
        var entities = Enumerable.Range(0, 100).Select(i => Entity("p", $"r{i}", i * 10)).ToArray();

        var scan = MultipartBatchScanner.Scan(Body(Batch(WriteMode.Upsert, entities)));

        Assert.Equal(100, scan.Operations.Count);
        Assert.Equal(entities.Sum(entity => BodyBytes(entity)), scan.Operations.Sum(operation => operation.BodyBytes));
    }

    [Theory]
    [InlineData(WriteMode.Upsert)]
    [InlineData(WriteMode.Merge)]
    [InlineData(WriteMode.Insert)]
    public void Reads_back_a_partition_key_with_quotes_percent_signs_and_unicode(WriteMode mode)
    {
        const string Key = "O'Brien ''quoted'' 100% & Zürich \"東京\" a+b=c";

        var scan = MultipartBatchScanner.Scan(Body(Batch(mode, Entity(Key, "r'1", 10), Entity(Key, "r2", 10))));

        Assert.Equal(Key, scan.PartitionKey);
        Assert.Equal(2, scan.Operations.Count);
    }

    [Theory]
    [InlineData("http://h:1/acct/t(PartitionKey='a''b',RowKey='c')", "a'b")]
    [InlineData("http://h:1/acct/t(PartitionKey='a%27%27b',RowKey='c')", "a'b")]
    [InlineData("http://h:1/acct/t(PartitionKey=%27a%27%27b%27,RowKey=%27c%27)", "a'b")]
    [InlineData("http://h:1/acct/t(PartitionKey='',RowKey='c')", "")]
    [InlineData("http://h:1/acct/t(PartitionKey='''',RowKey='c')", "'")]
    [InlineData("http://h:1/acct/t(PartitionKey='%25%20x',RowKey='c')", "% x")]
    [InlineData("http://h:1/acct/t", null)]
    [InlineData("http://h:1/acct/t(PartitionKey='unterminated", null)]
    public void Reads_the_partition_key_of_an_entity_url(string url, string? expected) =>
        Assert.Equal(expected, MultipartBatchScanner.PartitionKeyFromUrl(url));

    [Theory]
    [InlineData("""{"PartitionKey":"p\"q","RowKey":"r"}""", "p\"q")]
    [InlineData("""{"n":{"PartitionKey":"nested"},"x":[1,2],"PartitionKey":"top"}""", "top")]
    [InlineData("""{"RowKey":"r"}""", null)]
    [InlineData("""{"PartitionKey":5}""", null)]
    [InlineData("not json", null)]
    [InlineData("", null)]
    public void Reads_the_partition_key_of_an_insert_body(string json, string? expected) =>
        Assert.Equal(expected, MultipartBatchScanner.PartitionKeyFromJson(Encoding.UTF8.GetBytes(json)));

    [Fact]
    public void Reads_a_hand_written_batch_with_bare_line_feeds_a_delete_and_no_request_bodies()
    {
        var body = string.Join("\n",
            "--batch_1",
            "Content-Type: multipart/mixed; boundary=changeset_2",
            "",
            "--changeset_2",
            "Content-Type: application/http",
            "Content-Transfer-Encoding: binary",
            "",
            "DELETE http://h/acct/t(PartitionKey='k',RowKey='1') HTTP/1.1",
            "If-Match: *",
            "",
            "--changeset_2",
            "Content-Type: application/http",
            "",
            "PATCH http://h/acct/t(PartitionKey='k',RowKey='2') HTTP/1.1",
            "Content-Type: application/json",
            "",
            """{"a":1}""",
            "--changeset_2",
            "Content-Type: application/http",
            "",
            "GET http://h/acct/t(PartitionKey='k',RowKey='3') HTTP/1.1",
            "",
            "--changeset_2--",
            "--batch_1--",
            "");

        var scan = MultipartBatchScanner.Scan(Encoding.UTF8.GetBytes(body));

        Assert.Equal([("DELETE", 0), ("PATCH", 7)], scan.Operations.Select(operation => (operation.Method, operation.BodyBytes)));
        Assert.Equal("k", scan.PartitionKey);
    }

    [Fact]
    public void Finds_nothing_in_a_body_without_requests()
    {
        var scan = MultipartBatchScanner.Scan("--batch_1\r\n--batch_1--\r\n"u8);

        Assert.Empty(scan.Operations);
        Assert.Null(scan.PartitionKey);
    }

    /// <summary>The key as the SDK's JSON escapes it (the Direct writer keeps non-ASCII as UTF-8).</summary>
    private static string JsonEncodedKey(string key) => System.Text.Json.JsonSerializer.Serialize(key)[1..^1];
}
