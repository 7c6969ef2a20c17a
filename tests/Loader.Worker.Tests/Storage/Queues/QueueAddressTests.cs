using Loader.Worker.Storage.Queues;

namespace Loader.Worker.Tests.Storage.Queues;

public sealed class QueueAddressTests
{
    [Theory]
    [InlineData("https://acme.queue.core.windows.net/loader-shards", "https://acme.queue.core.windows.net/", "loader-shards")]
    [InlineData("http://127.0.0.1:10001/devstoreaccount1/loader-shards", "http://127.0.0.1:10001/devstoreaccount1", "loader-shards")]
    public void A_queue_url_names_its_account_and_queue_and_its_poison_queue(string url, string account, string name)
    {
        Assert.True(QueueAddress.TryParse(url, out var address, out var error), error);
        Assert.Equal(new Uri(account), address.AccountEndpoint);
        Assert.Equal(name, address.Name);
        Assert.Equal(name + "-poison", address.Poison.Name);
        Assert.Equal(address.AccountEndpoint, address.Poison.AccountEndpoint);
    }

    [Fact]
    public void A_signature_is_kept_apart_and_never_shown()
    {
        Assert.True(QueueAddress.TryParse("https://acme.queue.core.windows.net/shards?sv=2024&sig=s3cr3t", out var address, out _));
        Assert.Equal("sv=2024&sig=s3cr3t", address.SharedAccessSignature);
        Assert.DoesNotContain("s3cr3t", address.Display, StringComparison.Ordinal);
        Assert.Equal(address.SharedAccessSignature, address.Poison.SharedAccessSignature);
    }

    [Theory]
    [InlineData("acme/shards", "is not an http(s) URL")]
    [InlineData("https://acme.blob.core.windows.net/shards", "is not a Queue service endpoint")]
    [InlineData("https://acme.queue.core.windows.net/a/b", "does not name one queue")]
    [InlineData("https://acme.queue.core.windows.net/Shards", "is not a queue name this loader can use")]
    [InlineData("https://acme.queue.core.windows.net/a-fifty-eight-character-queue-name-whose-poison-name-is-65", "its poison queue adds '-poison'")]
    public void A_url_that_is_no_usable_queue_is_refused_saying_why(string url, string reason)
    {
        Assert.False(QueueAddress.TryParse(url, out _, out var error));
        Assert.Contains(reason, error, StringComparison.Ordinal);
    }
}
