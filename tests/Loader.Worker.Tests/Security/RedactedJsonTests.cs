using System.Text.Json;
using Loader.Worker.Reporting;
using Loader.Worker.Security;

namespace Loader.Worker.Tests.Security;

public sealed class RedactedJsonTests
{
    private sealed record Document(string Name, int Count, IReadOnlyList<string> Lines, IReadOnlyDictionary<string, string> Settings, Document? Inner = null);

    [Fact]
    public void Every_string_is_redacted_wherever_it_is_and_numbers_and_names_stay()
    {
        var document = new Document(
            "read https://acct.blob.core.windows.net/c/b?sv=1&sig=c2ln",
            42,
            ["AccountKey=a2V5", "plain"],
            new Dictionary<string, string> { ["Loader:Input"] = "https://u:p@host/x" },
            new Document("the key a2V5LXF1b3RlZA== alone", 7, [], new Dictionary<string, string>()));

        var json = JsonDocument.Parse(RedactedJson.Serialize(document, ReportWriter.JsonOptions, new Redaction(["a2V5LXF1b3RlZA=="])).ToString()).RootElement;

        Assert.Equal("read https://acct.blob.core.windows.net/c/b?sv=(removed)&sig=(removed)", json.GetProperty("name").GetString());
        Assert.Equal(42, json.GetProperty("count").GetInt32());
        Assert.Equal(["AccountKey=(removed)", "plain"], json.GetProperty("lines").EnumerateArray().Select(line => line.GetString()));
        Assert.Equal("https://(removed)@host/x", json.GetProperty("settings").GetProperty("Loader:Input").GetString());
        Assert.Equal("the key (removed) alone", json.GetProperty("inner").GetProperty("name").GetString());
    }

    [Fact]
    public void Without_a_secret_the_text_is_what_the_serializer_writes()
    {
        var document = new Document("flights.csv", 3, ["a", "b & <c>"], new Dictionary<string, string> { ["k"] = "v" });

        Assert.Equal(
            BinaryData.FromObjectAsJson(document, ReportWriter.JsonOptions).ToString(),
            RedactedJson.Serialize(document, ReportWriter.JsonOptions, Redaction.Rule).ToString());
    }

    [Fact]
    public void A_value_the_encoder_escapes_is_redacted_before_it_is_escaped()
    {
        // The default encoder writes & as \u0026 and + as \u002B: a rule run over the encoded text would miss both.
        var document = new Document("https://h/x?sv=1&sig=a+b with a2V5+Pz8/w==", 0, [], new Dictionary<string, string>());

        var text = RedactedJson.ToText(document, new JsonSerializerOptions(), new Redaction(["a2V5+Pz8/w=="]));

        Assert.Equal("https://h/x?sv=(removed)&sig=(removed) with (removed)", JsonDocument.Parse(text).RootElement.GetProperty("Name").GetString());
        Assert.Contains("sv=(removed)\\u0026sig=(removed)", text, StringComparison.Ordinal);
    }

    private sealed record Shard([property: Unredacted] string Part, string Message);

    [Fact]
    public void A_name_the_loader_finds_its_part_by_is_written_as_it_is()
    {
        IReadOnlyList<Shard> shards = [new("exports/customer_key=5/part.csv", "customer_key=5 failed"), new("exports/customer_key=6/part.csv", "")];

        var json = JsonDocument.Parse(RedactedJson.Serialize(shards, ReportWriter.JsonOptions, Redaction.Rule).ToString()).RootElement;

        Assert.Equal(["exports/customer_key=5/part.csv", "exports/customer_key=6/part.csv"], json.EnumerateArray().Select(shard => shard.GetProperty("part").GetString()));
        Assert.Equal("customer_key=(removed) failed", json[0].GetProperty("message").GetString());
    }

    [Fact]
    public void A_copy_holds_the_redacted_strings()
    {
        var copy = RedactedJson.Copy(new Document("Password=hunter22", 1, [], new Dictionary<string, string>()), ReportWriter.JsonOptions, Redaction.Rule);

        Assert.Equal(new Document("Password=(removed)", 1, [], copy.Settings), copy with { Lines = [] });
    }
}
