using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Configuration;

/// <summary>The ranges of <c>Loader:Retry</c> are what Polly's strategies take: the pipelines build at both ends, and Polly refuses a step past the top.</summary>
public sealed class RetryOptionsTests
{
    private static SettingRange RangeOf(string setting) => SettingRange.Of(typeof(RetryOptions).GetProperty(setting)!)!;

    private static void Build(RetryOptions options) =>
        _ = new BatchResilience(options, new LoadStatistics(new LoaderMetrics(new TestMeterFactory()), TimeProvider.System), TimeProvider.System);

    [Fact]
    public void Polly_builds_the_pipelines_at_each_end_of_every_range()
    {
        Build(new RetryOptions
        {
            MaxAttempts = (int)RangeOf(nameof(RetryOptions.MaxAttempts)).Minimum,
            MaxThrottledWait = (TimeSpan)RangeOf(nameof(RetryOptions.MaxThrottledWait)).Minimum,
            BaseDelay = (TimeSpan)RangeOf(nameof(RetryOptions.BaseDelay)).Minimum,
            MaxDelay = (TimeSpan)RangeOf(nameof(RetryOptions.MaxDelay)).Minimum,
            AttemptTimeout = (TimeSpan)RangeOf(nameof(RetryOptions.AttemptTimeout)).Minimum,
        });
        Build(new RetryOptions
        {
            MaxAttempts = (int)RangeOf(nameof(RetryOptions.MaxAttempts)).Maximum,
            MaxThrottledWait = (TimeSpan)RangeOf(nameof(RetryOptions.MaxThrottledWait)).Maximum,
            BaseDelay = (TimeSpan)RangeOf(nameof(RetryOptions.BaseDelay)).Maximum,
            MaxDelay = (TimeSpan)RangeOf(nameof(RetryOptions.MaxDelay)).Maximum,
            AttemptTimeout = (TimeSpan)RangeOf(nameof(RetryOptions.AttemptTimeout)).Maximum,
        });
    }

    [Theory]
    [InlineData(nameof(RetryOptions.BaseDelay))]
    [InlineData(nameof(RetryOptions.MaxDelay))]
    [InlineData(nameof(RetryOptions.AttemptTimeout))]
    public void Polly_refuses_a_tick_past_the_top_of_the_range(string setting)
    {
        var options = new RetryOptions();
        typeof(RetryOptions).GetProperty(setting)!.SetValue(options, (TimeSpan)RangeOf(setting).Maximum + TimeSpan.FromTicks(1));

        Assert.Throws<ValidationException>(() => Build(options));
    }

    [Fact]
    public void Polly_refuses_a_tick_below_the_shortest_attempt_timeout()
    {
        Assert.Throws<ValidationException>(() => Build(new RetryOptions { AttemptTimeout = (TimeSpan)RangeOf(nameof(RetryOptions.AttemptTimeout)).Minimum - TimeSpan.FromTicks(1) }));
    }
}
