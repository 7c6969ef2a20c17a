namespace Loader.Worker.Reporting.Verdict;

/// <summary>
/// Where a load's time went, in seconds of its elapsed time. The stages run side by side, so the parts overlap and need
/// not add up to <paramref name="ElapsedSeconds"/>; each is a share of it on its own.
/// </summary>
/// <param name="ElapsedSeconds">The load's time (as <c>elapsedSeconds</c>).</param>
/// <param name="ReadingSeconds">The read thread at work: waiting for the input's bytes, decompressing, parsing, mapping.</param>
/// <param name="InputSeconds">Of <paramref name="ReadingSeconds"/>, waiting for the input's bytes as stored (a disk, a blob download, a pipe).</param>
/// <param name="DecompressingSeconds">Of <paramref name="ReadingSeconds"/>, decompressing.</param>
/// <param name="ReaderWaitingSeconds">The read thread waiting for the batch stage to take its rows (the stages after it were slower).</param>
/// <param name="ServiceSeconds">Waiting for the service: time with at least one request at the service.</param>
/// <param name="ThrottledBackoffSeconds">Time with at least one batch backing off after a throttled answer (429, 503).</param>
/// <param name="FaultBackoffSeconds">Time with at least one batch backing off after a transient fault.</param>
/// <param name="PacedSeconds">Time with at least one batch waiting for the pace (a cap, or the rate learned from 429s).</param>
/// <param name="CheckpointingSeconds">Writing checkpoints (the rejects stored before each included); 0 without a checkpoint.</param>
/// <param name="CpuSeconds">CPU time the process used, on all its cores.</param>
/// <param name="CoresUsed"><paramref name="CpuSeconds"/> over <paramref name="ElapsedSeconds"/>: cores kept busy on average.</param>
/// <param name="Cores">The cores the process may use.</param>
internal sealed record TimeBreakdown(
    double ElapsedSeconds,
    double ReadingSeconds,
    double InputSeconds,
    double DecompressingSeconds,
    double ReaderWaitingSeconds,
    double ServiceSeconds,
    double ThrottledBackoffSeconds,
    double FaultBackoffSeconds,
    double PacedSeconds,
    double CheckpointingSeconds,
    double CpuSeconds,
    double CoresUsed,
    int Cores)
{
    public static TimeBreakdown Of(LoadDiagnosis load, TimeSpan checkpointing) => new(
        Seconds(load.Elapsed),
        Seconds(load.ReaderWorking),
        Seconds(load.InputReading),
        Seconds(load.InputDecompressing),
        Seconds(load.Times.ReaderBlocked),
        Seconds(load.Times.Service),
        Seconds(load.Times.ThrottledBackoffWall),
        Seconds(load.Times.FaultBackoffWall),
        Seconds(load.Times.PacedWall),
        Seconds(checkpointing),
        Seconds(load.Times.Cpu),
        Math.Round(load.CoresUsed, 2),
        load.Cores);

    private static double Seconds(TimeSpan time) => Math.Round(Math.Max(0, time.TotalSeconds), 3);
}
