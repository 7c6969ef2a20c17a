using Loader.Worker.Checkpoints;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Outputs;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;

namespace Loader.Worker.Tests.Pipeline;

/// <summary>Each failure a load expects means one outcome; anything else is no load failure and is left to the host.</summary>
public sealed class LoadFailuresTests
{
    public static TheoryData<Exception, LoadOutcomeKind> Failures => new()
    {
        { new InputNotFoundException("Loader:Input: blob 'x' does not exist."), LoadOutcomeKind.InvalidConfiguration },
        { new InputMismatchException("Loader:Input: the files under one prefix ..."), LoadOutcomeKind.InvalidConfiguration },
        { new CsvHeaderException("Input header: the input is empty"), LoadOutcomeKind.InvalidConfiguration },
        { new CheckpointRefusedException("Loader:CheckpointPath 'c' belongs to another load"), LoadOutcomeKind.InvalidConfiguration },
        { new OutputRefusedException(PreflightFailure.InvalidSetting, "Loader:RejectsPath: not a blob URL"), LoadOutcomeKind.InvalidConfiguration },
        { new OutputRefusedException(PreflightFailure.Refused, "Loader:ReportPath: cannot write 'r'"), LoadOutcomeKind.Unavailable },
        { new InputUnavailableException("Loader:Input: cannot open 'i'"), LoadOutcomeKind.Unavailable },
        { new CheckpointUnavailableException("Loader:CheckpointPath: cannot read 'c'"), LoadOutcomeKind.Unavailable },
        { new TargetUnavailableException("Tables: no answer from the service"), LoadOutcomeKind.Unavailable },
        { new DamagedInputException("a.gz", 10, "Loader:Input: 'a.gz' cannot be decompressed"), LoadOutcomeKind.InputDamaged },
    };

    [Theory]
    [MemberData(nameof(Failures))]
    public void A_load_failure_means_its_outcome_and_keeps_its_message(Exception failure, LoadOutcomeKind expected)
    {
        Assert.Equal(expected, LoadFailures.KindOf(failure));
        Assert.Equal(new LoadOutcome(expected, failure.Message), LoadFailures.OutcomeOf(failure));
    }

    [Fact]
    public void An_error_no_load_expects_is_none_of_them()
    {
        Assert.Null(LoadFailures.KindOf(new InvalidOperationException("a bug")));
        Assert.Null(LoadFailures.KindOf(new IOException("disk gone"))); // only the input's own reading of it is an input failure
        Assert.Null(LoadFailures.OutcomeOf(new OperationCanceledException()));
    }
}
