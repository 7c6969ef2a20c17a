using Loader.Worker.Parquet;

namespace Loader.Worker.Tests.Parquet;

/// <summary>What the read ahead may decode while a row group is mapped: a column waits for room under the limit, as the mapped rows give bytes back.</summary>
public sealed class ParquetReadBudgetTests
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_column_that_fits_under_the_limit_is_read_at_once()
    {
        var budget = new ParquetReadBudget();
        budget.AtLeast(100);
        budget.Hold(60);

        var read = budget.WaitForRoomAsync(40, _cancellation);

        Assert.True(read.IsCompletedSuccessfully);
        await read;
    }

    [Fact]
    public async Task A_column_that_would_pass_the_limit_waits_until_the_mapping_gives_enough_back()
    {
        var budget = new ParquetReadBudget();
        budget.AtLeast(100);
        budget.Hold(80);

        var read = budget.WaitForRoomAsync(40, _cancellation);
        Assert.False(read.IsCompleted);

        // 70 held: 110 would still pass the limit.
        budget.Return(10);
        Assert.False(read.IsCompleted);

        budget.Return(20);
        await read.WaitAsync(_cancellation);
        Assert.Equal(50, budget.Held);
    }

    [Fact]
    public async Task A_column_larger_than_the_limit_is_read_when_nothing_else_is_held()
    {
        var budget = new ParquetReadBudget();
        budget.AtLeast(100);

        await budget.WaitForRoomAsync(500, _cancellation);

        budget.Hold(500);
        var next = budget.WaitForRoomAsync(1, _cancellation);
        Assert.False(next.IsCompleted);
        budget.Return(500);
        await next.WaitAsync(_cancellation);
    }

    [Fact]
    public async Task A_read_the_mapping_waits_for_goes_on_past_the_limit_and_reads_wait_again_after()
    {
        var budget = new ParquetReadBudget();
        budget.AtLeast(100);
        budget.Hold(90);

        var read = budget.WaitForRoomAsync(40, _cancellation);
        Assert.False(read.IsCompleted);
        budget.Open();
        await read.WaitAsync(_cancellation);

        budget.Close();
        Assert.False(budget.WaitForRoomAsync(40, _cancellation).IsCompleted);
    }

    [Fact]
    public async Task A_larger_file_raises_the_limit_and_lets_a_waiting_column_go_on()
    {
        var budget = new ParquetReadBudget();
        budget.AtLeast(100);
        budget.Hold(90);

        var read = budget.WaitForRoomAsync(40, _cancellation);
        budget.AtLeast(50);
        Assert.Equal(100, budget.Limit);
        Assert.False(read.IsCompleted);

        budget.AtLeast(130);
        await read.WaitAsync(_cancellation);
    }

    [Fact]
    public async Task A_read_ahead_dropped_while_it_waits_stops_waiting()
    {
        var budget = new ParquetReadBudget();
        budget.AtLeast(100);
        budget.Hold(100);
        using var drop = CancellationTokenSource.CreateLinkedTokenSource(_cancellation);

        var read = budget.WaitForRoomAsync(1, drop.Token);
        await drop.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => read);
    }
}
