using Loader.Worker.Security;

namespace Loader.Worker.Tests.Security;

public sealed class RedactionTests
{
    [Theory]
    [InlineData(
        "cannot read 'https://acct.blob.core.windows.net/in/a.csv?sv=2024-08-04&ss=b&sig=abc%2Bdef%3D': 403",
        "cannot read 'https://acct.blob.core.windows.net/in/a.csv?sv=(removed)&ss=(removed)&sig=(removed)': 403")]
    [InlineData("https://loader:hunter2@collector:4318/v1/metrics", "https://(removed)@collector:4318/v1/metrics")]
    [InlineData("https://loader:p@ss@collector/?api-key=xyz#top", "https://(removed)@collector/?api-key=(removed)#top")]
    [InlineData("amqps://user:pw@bus.servicebus.windows.net/queue?token=t", "amqps://(removed)@bus.servicebus.windows.net/queue?token=(removed)")]
    [InlineData("GET http://127.0.0.1:10000/devstoreaccount1/c/b?comp=list&sig=s&empty= failed", "GET http://127.0.0.1:10000/devstoreaccount1/c/b?comp=(removed)&sig=(removed)&empty= failed")]
    [InlineData("http://host/path?bare-token", "http://host/path?(removed)")]
    [InlineData("http://host/path and https://other/x", "http://host/path and https://other/x")]
    [InlineData(
        "reading https://acct.blob.core.windows.net/exports/customer_key=5/part.csv?sig=c2ln",
        "reading https://acct.blob.core.windows.net/exports/customer_key=5/part.csv?sig=(removed)")]
    public void A_url_loses_its_user_information_and_every_query_value_but_keeps_the_names(string text, string expected) =>
        Assert.Equal(expected, Redaction.Rule.Redact(text));

    [Theory]
    [InlineData(
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5+/==;EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=(removed);EndpointSuffix=core.windows.net")]
    [InlineData(
        "BlobEndpoint=http://127.0.0.1:1/devstoreaccount1;SharedAccessSignature=sv=2024&ss=b&sig=abc%3D",
        "BlobEndpoint=http://127.0.0.1:1/devstoreaccount1;SharedAccessSignature=(removed)")]
    [InlineData(
        "BlobEndpoint=http://127.0.0.1:1/devstoreaccount1;AccountKey=a2V5;AccountName=devstoreaccount1",
        "BlobEndpoint=http://127.0.0.1:1/devstoreaccount1;AccountKey=(removed);AccountName=devstoreaccount1")]
    [InlineData(
        "TableEndpoint=http://127.0.0.1:1/acct?sv=1&sig=abc;AccountName=acct",
        "TableEndpoint=http://127.0.0.1:1/acct?sv=(removed)&sig=(removed);AccountName=acct")]
    [InlineData(
        "Endpoint=sb://bus.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=k3y=",
        "Endpoint=sb://bus.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=(removed)")]
    [InlineData(
        "InstrumentationKey=00000000-7f3a-0000-0000-000000000000;IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/",
        "InstrumentationKey=(removed);IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/")]
    [InlineData("Server=db;User Id=loader;Password=s3cr3t;Pwd=other", "Server=db;User Id=loader;Password=(removed);Pwd=(removed)")]
    [InlineData("ApiKey=a client_secret=b x-refresh-token=c", "ApiKey=(removed) client_secret=(removed) x-refresh-token=(removed)")]
    public void A_connection_string_loses_the_values_of_keys_signatures_passwords_and_tokens(string text, string expected) =>
        Assert.Equal(expected, Redaction.Rule.Redact(text));

    [Theory]
    [InlineData("PartitionKey=DEN;RowKey=2024-1-3")]
    [InlineData("column 'year': '20x4' is not a valid Int32")]
    [InlineData("Loader:Tables:ConnectionString is not a valid storage connection string: UseDevelopmentStorage=true")]
    [InlineData("rows read = written + rejected")]
    [InlineData("")]
    public void Text_without_a_secret_is_left_as_it_is(string text) =>
        Assert.Same(text, Redaction.Rule.Redact(text));

    [Fact]
    public void A_known_value_is_removed_wherever_it_appears_alone_and_url_encoded()
    {
        var redaction = new Redaction(["a2V5K/Pz8/8=", "short"]);

        Assert.Equal(
            "403: the key (removed) was refused; signed with (removed); a short word stays",
            redaction.Redact("403: the key a2V5K/Pz8/8= was refused; signed with a2V5K%2FPz8%2F8%3D; a short word stays"));
    }

    [Fact]
    public void Redacting_twice_changes_nothing_more()
    {
        var once = Redaction.Rule.Redact("https://u:p@h/x?sv=1&sig=2;AccountKey=k;SharedAccessSignature=sv=1&sig=2");

        Assert.Equal("https://(removed)@h/x?sv=(removed)&sig=(removed);AccountKey=(removed);SharedAccessSignature=(removed)", once);
        Assert.Same(once, Redaction.Rule.Redact(once));
    }

    [Fact]
    public void The_secrets_in_a_setting_are_its_password_signature_and_keys_as_written_and_decoded()
    {
        Assert.Equal(
            ["user:pa%40ss", "pa%40ss", "pa@ss", "abc%2Bd%3D", "abc+d="],
            Redaction.SecretsIn("https://user:pa%40ss@host/p?sv=2024&sig=abc%2Bd%3D").Distinct());
        Assert.Equal(
            ["a2V5", "sv=2024&sig=c2ln%3D", "sv=2024&sig=c2ln=", "c2ln%3D", "c2ln="],
            Redaction.SecretsIn("AccountName=acct;AccountKey=a2V5;SharedAccessSignature=sv=2024&sig=c2ln%3D").Distinct());
        Assert.Empty(Redaction.SecretsIn("data/sample.csv"));
    }
}
