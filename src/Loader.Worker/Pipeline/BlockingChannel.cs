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

    /// <summary>Writes, blocking while the channel is full; returns how long it waited (zero, untimed, when there was room at once).</summary>
    public static TimeSpan Write<T>(ChannelWriter<T> writer, T item, TimeProvider clock)
    {
        if (writer.TryWrite(item))
        {
            return TimeSpan.Zero;
        }

        var started = clock.GetTimestamp();
        Write(writer, item);
        return clock.GetElapsedTime(started);
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

    /// <summary>
    /// Reads, blocking while the channel is empty, but calls <paramref name="whileIdle"/> every
    /// <paramref name="idlePeriod"/> it stays empty (a stage's time-driven work when its input is slow); false once the
    /// channel is completed and drained.
    /// </summary>
    public static bool TryRead<T>(ChannelReader<T> reader, out T item, TimeSpan idlePeriod, Action whileIdle)
    {
        while (!reader.TryRead(out item!))
        {
            // One wait at a time, kept across idle periods: the channel allows a single reader.
            var waiting = reader.WaitToReadAsync().AsTask();
            while (!waiting.Wait(idlePeriod))
            {
                whileIdle();
            }

            if (!waiting.Result)
            {
                return false;
            }
        }

        return true;
    }
}
