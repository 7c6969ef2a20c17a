using System.Threading.Channels;

namespace Loader.Worker.Pipeline;

/// <summary>Synchronous waits on a bounded channel, for the stages that own a thread (see <see cref="StageThread"/>).</summary>
internal static class BlockingChannel
{
    /// <summary>Writes, blocking while the channel is full.</summary>
    public static void Write<T>(ChannelWriter<T> writer, T item)
    {
        while (!writer.TryWrite(item))
        {
            if (!writer.WaitToWriteAsync().AsTask().GetAwaiter().GetResult())
            {
                throw new ChannelClosedException();
            }
        }
    }

    /// <summary>Reads, blocking while the channel is empty; false once it is completed and drained.</summary>
    public static bool TryRead<T>(ChannelReader<T> reader, out T item)
    {
        while (!reader.TryRead(out item!))
        {
            if (!reader.WaitToReadAsync().AsTask().GetAwaiter().GetResult())
            {
                return false;
            }
        }

        return true;
    }
}
