using System.Text.Json.Serialization.Metadata;
using Loader.Worker.Checkpoints;
using Loader.Worker.Reporting;

namespace Loader.Worker.Tests.Reporting;

/// <summary>The report's JSON contract: made at build time for the load report, by reflection for what else the options write.</summary>
public sealed class ReportWriterTests
{
    [Fact]
    public void The_load_report_is_written_through_its_build_time_contract()
    {
        var contract = ReportWriter.JsonOptions.GetTypeInfo(typeof(LoadReport));

        // Reflection would emit and compile an accessor per property as the load ends: the exit a short load waits for.
        Assert.Same(ReportJsonContext.Default, contract.OriginatingResolver);
        Assert.Contains(contract.Properties, property => property.Name == "rowsWritten");
    }

    [Fact]
    public void Types_outside_the_report_keep_the_reflection_contract()
    {
        var contract = ReportWriter.JsonOptions.GetTypeInfo(typeof(Checkpoint));

        Assert.IsType<DefaultJsonTypeInfoResolver>(contract.OriginatingResolver);
    }
}
