using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Mapping;
using Loader.Worker.Outputs;
using Loader.Worker.Pipeline;
using Loader.Worker.Records;
using Loader.Worker.Rejects;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Verify;

/// <summary>
/// Reads what the load read, as the load reads it: the input found, opened, its header fitted and every record mapped
/// by the load's own parts (<see cref="LoadInput"/>: the same templates, types and backend rules), each row marked
/// rejected when its scope's rejects files list its line, and handed to the sorter. Rows that cannot be mapped are
/// counted rejected: the load rejected them the same way.
/// </summary>
internal sealed partial class VerifyInput(InputOpener opener, OutputFiles outputs, LoaderOptions settings, IBackendAdapter backend, ILogger<VerifyInput> logger)
{
    public async Task ReadAsync(IReadOnlyList<VerifyScope> scopes, RowSorter sorter, VerifyTally tally, CancellationToken cancellationToken)
    {
        long sequence = 0;
        foreach (var scope in scopes)
        {
            var input = new LoadInput(opener, settings, backend, scope.Shard is null ? null : scope.Shard.Narrow);
            var source = await input.FindAsync(cancellationToken).ConfigureAwait(false);
            var rejected = await RejectedLinesAsync(scope.RejectsFiles, source.Format, cancellationToken).ConfigureAwait(false);
            using var reader = input.OpenReader(source);
            var createMapper = input.Mappers(input.Fit(reader.Columns, source.Format), reader, source.Format);
            using var mappers = new ThreadLocal<EntityMapper>(createMapper);
            foreach (var record in reader.ReadAll(new MapEach(mappers), LoadPipeline.MapThreads(settings, source.Format)))
            {
                cancellationToken.ThrowIfCancellationRequested();
                tally.RowsRead(1);
                if (record.Malformed is not null || record.Value.Entity is not { } entity)
                {
                    tally.Unmappable(1);
                    continue;
                }

                var located = source.Lines.HasSeveralParts ? source.Lines.Locate(entity.Origin.Line) : null;
                var row = new VerifyRow(entity with { SourceRecord = default }, ++sequence, rejected.Contains(entity.Origin.Line), located?.Part, located?.Line ?? 0)
                {
                    // A Parquet row is named by its row group and row, not a line.
                    Place = source.Format == InputFormat.Parquet ? reader.Describe(entity.Origin) : null,
                };
                sorter.Add(row);
            }
        }
    }

    private sealed class MapEach(ThreadLocal<EntityMapper> mappers) : IRecordMapper<MapResult>
    {
        public MapResult Map<TRecord>(in TRecord record)
            where TRecord : struct, IRecordFields => mappers.Value!.Map(record);
    }

    /// <summary>The lines the rejects files list; a file not there lists none (the load rejected nothing there, or has not run).</summary>
    private async Task<HashSet<long>> RejectedLinesAsync(IReadOnlyList<string> files, InputFormat format, CancellationToken cancellationToken)
    {
        var lines = new HashSet<long>();
        foreach (var setting in files)
        {
            var file = outputs.For("Loader:RejectsPath", setting)!;
            if (await RejectedLinesFile.ReadAsync(file, CsvRecordReader.Separator(settings.Csv.Delimiter), cancellationToken, jsonLines: RejectLayouts.IsJsonLines(format)).ConfigureAwait(false) is { } listed)
            {
                lines.UnionWith(listed);
            }
            else
            {
                LogNoRejectsFile(file.Display);
            }
        }

        return lines;
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "No rejects file at {RejectsPath}: every row is expected in the target")]
    private partial void LogNoRejectsFile(string rejectsPath);
}
