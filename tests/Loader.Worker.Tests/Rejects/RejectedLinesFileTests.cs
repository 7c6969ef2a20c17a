using Loader.Abstractions;
using Loader.Worker.Inputs;
using Loader.Worker.Outputs;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;

namespace Loader.Worker.Tests.Rejects;

/// <summary>The lines a rejects file lists, as verify reads them: by the column's name, whatever columns stand beside it.</summary>
public sealed class RejectedLinesFileTests : IDisposable
{
    private readonly TestDirectory _directory = new();
    private readonly OutputFiles _outputs = new(new BlobClientFactory(new BlobOptions()), Redaction.Rule);
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task The_lines_of_a_rejects_file_the_sink_wrote_for_an_input_of_several_parts()
    {
        var path = _directory.File("rejects.csv");
        var lines = new InputLineMap { HasSeveralParts = true };
        lines.PartStarts("a.csv", firstLine: 1, ownLine: 1);
        using (var sink = new RejectSink(path, 100, new LoadStatistics(new LoaderMetrics(new TestMeterFactory()), TimeProvider.System), NullLogger<RejectSink>.Instance, Redaction.Rule, lines: lines))
        {
            sink.Reject(new RowOrigin(3, 4), "bad", "x,\"two\nlines\"");
            sink.Reject(new RowOrigin(9, 12), "worse", "y");
            await sink.FlushAsync(_cancellation);
        }

        Assert.Equal([4L, 12L], (await RejectedLinesFile.ReadAsync(_outputs.For(path)!, _cancellation))!.Order());
    }

    [Fact]
    public async Task The_line_column_is_found_by_its_name_among_other_columns()
    {
        var path = _directory.WriteCsv("rejects.csv", "reason,Line,record,dest,extra\n\"a, b\",7,\"1,2\",JFK,\n why ,31,3,LAX,x\n");

        Assert.Equal([7L, 31L], (await RejectedLinesFile.ReadAsync(_outputs.For(path)!, _cancellation))!.Order());
    }

    [Fact]
    public async Task No_file_lists_nothing_and_a_file_without_a_line_column_is_refused_naming_it()
    {
        Assert.Null(await RejectedLinesFile.ReadAsync(_outputs.For(_directory.File("none.csv"))!, _cancellation));

        var path = _directory.WriteCsv("other.csv", "a,b\n1,2\n");
        var refused = await Assert.ThrowsAsync<InvalidDataException>(() => RejectedLinesFile.ReadAsync(_outputs.For(path)!, _cancellation));
        Assert.Contains("has no 'line' column", refused.Message, StringComparison.Ordinal);
    }
}
