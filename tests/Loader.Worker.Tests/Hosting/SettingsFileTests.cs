using Loader.Worker.Hosting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Hosting;

/// <summary><c>--settings file.json</c> sits above appsettings.json and below the environment and the command line.</summary>
public sealed class SettingsFileTests : IDisposable
{
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_settings_file_overrides_what_appsettings_json_sets()
    {
        var file = _directory.WriteCsv("load.json", """
            { "Loader": { "WriteMode": "Insert", "MaxRejects": 7, "ProgressInterval": "00:00:01", "Csv": { "Delimiter": ";" } } }
            """);

        var configuration = LoaderHost.CreateBuilder(["--settings", file]).Configuration;

        // appsettings.json sets each of these to its default: Upsert, 1000, 00:00:05, ','.
        Assert.Equal("Insert", configuration["Loader:WriteMode"]);
        Assert.Equal("7", configuration["Loader:MaxRejects"]);
        Assert.Equal("00:00:01", configuration["Loader:ProgressInterval"]);
        Assert.Equal(";", configuration["Loader:Csv:Delimiter"]);
    }

    [Fact]
    public void The_command_line_overrides_a_settings_file()
    {
        var file = _directory.WriteCsv("load.json", """{ "Loader": { "WriteMode": "Insert", "MaxRejects": 7 } }""");

        var configuration = LoaderHost.CreateBuilder(["--settings", file, "--Loader:WriteMode=Merge"]).Configuration;

        Assert.Equal("Merge", configuration["Loader:WriteMode"]);
        Assert.Equal("7", configuration["Loader:MaxRejects"]);
    }
}
