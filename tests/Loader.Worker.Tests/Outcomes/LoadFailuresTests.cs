using Loader.Worker.Backends;
using Loader.Worker.Checkpoints;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Records;

namespace Loader.Worker.Tests.Outcomes;

/// <summary>Each failure a load expects means one outcome; anything else is no load failure and is left to the host.</summary>
public sealed class LoadFailuresTests
{
    public static TheoryData<Exception, string> Failures => new()
    {
        { new InputNotFoundException("Loader:Input: blob 'x' does not exist."), nameof(LoadOutcomeKind.Unavailable) },
        { new InputRefusedException("Loader:Input 'x' is a folder."), nameof(LoadOutcomeKind.InvalidConfiguration) },
        { new InputFormatException("x.zip", "Loader:Input: 'x.zip' is a zip archive"), nameof(LoadOutcomeKind.InvalidConfiguration) },
        { new InputMismatchException("Loader:Input: the files under one prefix ..."), nameof(LoadOutcomeKind.InvalidConfiguration) },
        { new InputHeaderException("Input header: the input is empty"), nameof(LoadOutcomeKind.InvalidConfiguration) },
        { new CheckpointRefusedException("Loader:CheckpointPath 'c' belongs to another load"), nameof(LoadOutcomeKind.InvalidConfiguration) },
        { new OutputRefusedException(PreflightFailure.InvalidSetting, "Loader:RejectsPath: not a blob URL"), nameof(LoadOutcomeKind.InvalidConfiguration) },
        { new OutputRefusedException(PreflightFailure.Refused, "Loader:ReportPath: cannot write 'r'"), nameof(LoadOutcomeKind.Unavailable) },
        { new InputUnavailableException("Loader:Input: cannot open 'i'"), nameof(LoadOutcomeKind.Unavailable) },
        { new CheckpointUnavailableException("Loader:CheckpointPath: cannot read 'c'"), nameof(LoadOutcomeKind.Unavailable) },
        { new TargetUnavailableException("Tables: no answer from the service"), nameof(LoadOutcomeKind.Unavailable) },
        { new DamagedInputException("a.gz", 10, "Loader:Input: 'a.gz' cannot be decompressed"), nameof(LoadOutcomeKind.InputDamaged) },
    };

    [Theory]
    [MemberData(nameof(Failures))]
    public void A_load_failure_means_its_outcome_and_keeps_its_message(Exception failure, string expectedName)
    {
        var expected = Enum.Parse<LoadOutcomeKind>(expectedName);
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
