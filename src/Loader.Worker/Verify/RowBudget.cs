namespace Loader.Worker.Verify;

/// <summary>
/// Bounds the rows held by the windows being compared at once, so memory follows <c>Loader:Verify:RowsInMemory</c> and
/// not the number of partitions. A window larger than the whole budget goes when nothing else is held. One taker (the
/// loop handing out windows); any number of returners.
/// </summary>
internal sealed class RowBudget(int capacity)
{
    private readonly Lock _lock = new();
    private int _held;
    private TaskCompletionSource _returned = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Waits until <paramref name="rows"/> fit beside the rows held, then holds them.</summary>
    public async Task TakeAsync(int rows, CancellationToken cancellationToken)
    {
        while (true)
        {
            Task returned;
            lock (_lock)
            {
                if (_held == 0 || _held + rows <= capacity)
                {
                    _held += rows;
                    return;
                }

                returned = _returned.Task;
            }

            await returned.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    public void Return(int rows)
    {
        TaskCompletionSource returned;
        lock (_lock)
        {
            _held -= rows;
            returned = _returned;
            _returned = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        returned.TrySetResult();
    }
}
