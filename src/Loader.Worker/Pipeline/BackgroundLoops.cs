using Loader.Worker.Checkpoints;
using Loader.Worker.Dispatch;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Terminal;

namespace Loader.Worker.Pipeline;

/// <summary>
/// The loops beside a load's stages: progress lines in the log, the terminal's progress bar, and a checkpoint every
/// interval. Started together when the stages start, stopped together once they end.
/// </summary>
internal sealed class BackgroundLoops : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _running;

    /// <param name="progress">Logs a progress line every <paramref name="progressInterval"/>.</param>
    /// <param name="progressInterval">The <c>Loader:ProgressInterval</c> setting.</param>
    /// <param name="terminal">Draws the progress bar on an interactive terminal; null for none.</param>
    /// <param name="statistics">What the bar shows.</param>
    /// <param name="controls">The concurrency and pace both show.</param>
    /// <param name="checkpoints">Writes a checkpoint every interval; null when the load keeps none.</param>
    public BackgroundLoops(ProgressReporter progress, TimeSpan progressInterval, TerminalProgress? terminal, LoadStatistics statistics, DispatchControls controls, CheckpointWriter? checkpoints)
    {
        (int, double?) Pace() => (controls.Limiter.Limit, controls.Pacer.RequestUnitRate);
        var logging = progress.RunAsync(progressInterval, Pace, checkpoints is null ? null : () => checkpoints.SinceLastWritten, _stop.Token);
        var bar = terminal?.RunAsync(statistics, Pace, _stop.Token) ?? Task.CompletedTask;
        var checkpointing = checkpoints?.RunAsync(_stop.Token) ?? Task.CompletedTask;
        _running = Task.WhenAll(logging, checkpointing, bar);
    }

    /// <summary>Stops the loops and waits for each to end.</summary>
    public async Task StopAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await _running.ConfigureAwait(false);
    }

    public void Dispose() => _stop.Dispose();
}
