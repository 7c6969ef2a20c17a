namespace Loader.Worker.Pipeline;

/// <summary>
/// Runs a CPU-bound pipeline stage on a thread of its own. The read and batch stages are tight loops that block
/// on their channels when the next stage falls behind; on the thread pool every wake-up would hop threads and
/// the pool would spin idle workers, which costs a third of the throughput on a two-core machine.
/// </summary>
internal static class StageThread
{
    public static Task Run(string name, Action body)
    {
        var completion = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() =>
        {
            try
            {
                body();
                completion.SetResult();
            }
            catch (Exception exception)
            {
                completion.SetException(exception);
            }
        })
        {
            IsBackground = true,
            Name = name,
        };
        thread.Start();
        return completion.Task;
    }
}
