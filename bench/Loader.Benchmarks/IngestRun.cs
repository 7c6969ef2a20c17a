namespace Loader.Benchmarks;

/// <summary>One repeat of the ingest benchmark: the loader and its two baselines, each on a fresh Azurite.</summary>
internal sealed record IngestRun(int Repeat, Measurement Loader, Measurement RawBatchCeiling, Measurement OneRequestPerRow)
{
    public IEnumerable<Measurement> Measurements() => [Loader, RawBatchCeiling, OneRequestPerRow];
}
