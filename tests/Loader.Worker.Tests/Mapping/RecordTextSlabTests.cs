using System.Runtime.InteropServices;
using System.Text;
using Loader.Worker.Mapping;

namespace Loader.Worker.Tests.Mapping;

public sealed class RecordTextSlabTests
{
    [Fact]
    public void Kept_texts_stay_as_they_were_when_the_source_buffer_is_reused_and_slabs_fill()
    {
        var slab = new RecordTextSlab();
        var source = new byte[200];
        var kept = new List<(ReadOnlyMemory<byte> Text, string Expected)>();
        for (var i = 0; i < 2_000; i++) // about ten slabs' worth
        {
            var text = $"2020,1,{i},AA,{i},record {i}";
            var length = Encoding.UTF8.GetBytes(text, source);
            kept.Add((slab.Keep(source.AsSpan(0, length)), text));
            Array.Fill(source, (byte)'x'); // the reader moves on and overwrites its buffer
        }

        Assert.All(kept, item => Assert.Equal(item.Expected, Encoding.UTF8.GetString(item.Text.Span)));
    }

    [Fact]
    public void A_long_record_gets_an_array_of_its_own_and_the_slab_goes_on()
    {
        var slab = new RecordTextSlab();
        var small = slab.Keep("a,b"u8);
        var longRecord = slab.Keep(new byte[(RecordTextSlab.SlabBytes / 8) + 1]);
        var after = slab.Keep("c,d"u8);

        Assert.True(MemoryMarshal.TryGetArray(longRecord, out var own));
        Assert.Equal(longRecord.Length, own.Array!.Length);
        Assert.True(MemoryMarshal.TryGetArray(small, out var first));
        Assert.True(MemoryMarshal.TryGetArray(after, out var next));
        Assert.Same(first.Array, next.Array);
        Assert.Equal("a,b", Encoding.UTF8.GetString(small.Span));
        Assert.Equal("c,d", Encoding.UTF8.GetString(after.Span));
    }
}
