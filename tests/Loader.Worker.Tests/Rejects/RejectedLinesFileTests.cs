using Loader.Abstractions;
using Loader.Worker.Csv;
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
    public async Task The_lines_in_the_input_of_a_rejects_file_the_sink_wrote_in_the_inputs_delimiter()
    {
        var path = _directory.File("rejects.csv");
        var lines = new InputLineMap { HasSeveralParts = true };
        lines.PartStarts("a.csv", firstLine: 1, ownLine: 1);
        var rows = new RejectRows(["pk", "line", "note"], ';', lines, "input");
        using (var sink = new RejectSink(path, 100, new LoadStatistics(new LoaderMetrics(new TestMeterFactory()), TimeProvider.System), NullLogger<RejectSink>.Instance, Redaction.Rule, rows))
        {
            sink.Reject(new RowOrigin(3, 4), "bad", "p;99;\"two\nlines\"");
            sink.RejectUnsplit(new RowOrigin(9, 12), "worse", "y");
            await sink.FlushAsync(_cancellation);
        }

        Assert.Equal([4L, 12L], (await RejectedLinesFile.ReadAsync(_outputs.For(path)!, ';', _cancellation))!.Order());
    }

    [Fact]
    public async Task A_rejects_file_of_an_earlier_version_lists_its_line_column()
    {
        var path = _directory.WriteCsv("rejects.csv", "line,reason,record,file,fileLine\n7,\"a, b\",\"1,2\",a.csv,7\n31, why ,3,b.csv,2\n");

        Assert.Equal([7L, 31L], (await RejectedLinesFile.ReadAsync(_outputs.For(path)!, ',', _cancellation))!.Order());
    }

    [Fact]
    public async Task No_file_lists_nothing_and_a_file_without_a_line_column_is_refused_naming_it()
    {
        Assert.Null(await RejectedLinesFile.ReadAsync(_outputs.For(_directory.File("none.csv"))!, ',', _cancellation));

        var path = _directory.WriteCsv("other.csv", "a,b\n1,2\n");
        var refused = await Assert.ThrowsAsync<InvalidDataException>(() => RejectedLinesFile.ReadAsync(_outputs.For(path)!, ',', _cancellation));
        Assert.Contains($"has no '{RejectColumns.InputLine}' column", refused.Message, StringComparison.Ordinal);
    }
}
