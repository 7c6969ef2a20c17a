using Loader.Worker.Inputs;

namespace Loader.Worker.Tests.Inputs;

public sealed class CountingStreamTests
{
    [Fact]
    public async Task Every_way_of_reading_is_counted_and_the_end_adds_nothing()
    {
        await using var stream = new CountingStream(new MemoryStream(new byte[100]));

        stream.ReadExactly(new byte[10]);
        _ = stream.Read(new byte[5], 0, 5);
        _ = stream.ReadByte();
        await stream.ReadExactlyAsync(new byte[20], TestContext.Current.CancellationToken);
        var rest = await stream.ReadAsync(new byte[1_000], TestContext.Current.CancellationToken);
        var atEnd = await stream.ReadAsync(new byte[10], TestContext.Current.CancellationToken);

        Assert.Equal((64, 0), (rest, atEnd));
        Assert.Equal(100, stream.BytesRead);
        Assert.Equal(100, stream.Position);
        Assert.False(stream.CanSeek);
    }
}
