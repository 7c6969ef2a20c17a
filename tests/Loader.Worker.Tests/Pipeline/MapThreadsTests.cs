using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Pipeline;

namespace Loader.Worker.Tests.Pipeline;

/// <summary>How many threads map records: the setting when given, else by where the format's read thread spends its time.</summary>
public sealed class MapThreadsTests
{
    [Fact]
    public void Csv_keeps_a_core_for_its_parsing_read_thread_and_json_lines_and_parquet_map_on_every_core()
    {
        var settings = new LoaderOptions();
        var cores = Environment.ProcessorCount;

        Assert.Equal(Math.Clamp(cores - 1, 1, 4), LoadPipeline.MapThreads(settings, InputFormat.Csv));
        Assert.Equal(Math.Clamp(cores, 1, 4), LoadPipeline.MapThreads(settings, InputFormat.JsonLines));
        Assert.Equal(Math.Clamp(cores, 1, 4), LoadPipeline.MapThreads(settings, InputFormat.Parquet));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    public void The_setting_decides_for_every_format(int threads)
    {
        var settings = new LoaderOptions();
        settings.Csv.MapThreads = threads;

        Assert.All([InputFormat.Csv, InputFormat.JsonLines, InputFormat.Parquet], format => Assert.Equal(threads, LoadPipeline.MapThreads(settings, format)));
    }
}
