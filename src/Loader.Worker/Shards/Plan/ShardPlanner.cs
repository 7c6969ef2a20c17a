using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Pipeline;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Shards.Plan;

/// <summary>
/// Cuts an input into shards. Key shards are buckets of partition keys over the whole input. Range shards are the
/// input's parts, each part larger than <c>Loader:Shards:TargetBytes</c> cut into ranges of about that size at record
/// boundaries found by reading it once with the loader's own reader of its format (<see cref="Records.IRecordFormat.FindCuts"/>:
/// for CSV a quoted field's line breaks never split a record and a stray quote is handled where the loader would handle it).
/// </summary>
internal sealed partial class ShardPlanner(ILogger<ShardPlanner> logger)
{
    public async Task<IReadOnlyList<ShardSpec>> CutAsync(LoaderOptions settings, InputSource source, CancellationToken cancellationToken)
    {
        var options = settings.Shards;
        if (options.By == ShardKind.Key)
        {
            return [.. Enumerable.Range(0, options.Count).Select(bucket => new ShardSpec { Id = ShardedLoad.ShardId(bucket), Bucket = bucket, Buckets = options.Count })];
        }

        var shards = new List<ShardSpec>();
        foreach (var part in source.Parts)
        {
            foreach (var range in await CutPartAsync(part, settings, cancellationToken).ConfigureAwait(false))
            {
                shards.Add(range with { Id = ShardedLoad.ShardId(shards.Count) });
            }
        }

        return shards;
    }

    private async Task<IReadOnlyList<ShardSpec>> CutPartAsync(InputPart part, LoaderOptions settings, CancellationToken cancellationToken)
    {
        var target = settings.Shards.TargetBytes;
        var whole = new ShardSpec { Id = "", Part = part.Name, PartVersion = part.Version, PartLength = part.Length, Start = 0, End = part.Length };
        if (part.Length <= target)
        {
            return [whole];
        }

        if (!part.CanOpenRange)
        {
            LogNotCut(part.Name, part.Length, "it cannot be read from the middle");
            return [whole];
        }

        var targets = new List<long>();
        for (var offset = target; offset < part.Length; offset += target)
        {
            targets.Add(offset);
        }

        var clock = System.Diagnostics.Stopwatch.StartNew();
        // The reader reads synchronously, on a thread of its own rather than the caller's.
        var found = await Task.Run(
            () => RecordFormats.For(part.Format, settings).FindCuts(part, settings.Blob.ReadBlockSize, targets, cancellationToken),
            cancellationToken).ConfigureAwait(false);
        if (found is not { Cuts.Count: > 0 })
        {
            LogNotCut(part.Name, part.Length, found is null ? "it is not UTF-8, or holds no record" : "no record starts after the first target");
            return [whole];
        }

        var ranges = new List<ShardSpec>(found.Cuts.Count + 1) { whole with { End = found.Cuts[0].Offset } };
        for (var i = 0; i < found.Cuts.Count; i++)
        {
            var cut = found.Cuts[i];
            ranges.Add(whole with
            {
                Start = cut.Offset,
                End = i + 1 < found.Cuts.Count ? found.Cuts[i + 1].Offset : part.Length,
                HeaderBytes = found.HeaderBytes,
                FirstLine = cut.Line,
                RecordsBefore = cut.RecordsBefore,
            });
        }

        LogCut(part.Name, part.Length, ranges.Count, clock.Elapsed.TotalSeconds);
        return ranges;
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Plan: '{Part}' ({Bytes:N0} bytes) cut into {Ranges} ranges at record boundaries in {Seconds:0.0} s")]
    private partial void LogCut(string part, long bytes, int ranges, double seconds);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Plan: '{Part}' ({Bytes:N0} bytes) is one shard, not cut: {Reason}")]
    private partial void LogNotCut(string part, long bytes, string reason);
}
