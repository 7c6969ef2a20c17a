using Loader.Worker.Hosting;
using Loader.Worker.Verify;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>Runs <c>verify</c> through the loader's real host in-process, as <c>loader verify --settings...</c> would, and captures what it produced.</summary>
internal static class VerifyRunner
{
    public static Task<VerifyRun> RunAsync(IReadOnlyDictionary<string, string?> settings, CancellationToken cancellationToken, params string[] switches) =>
        LoaderRunner.RunHostAsync<VerifyJob, VerifyRun>(
            [.. new[] { "verify" }.Concat(switches).Concat(settings.Select(setting => $"--{setting.Key}={setting.Value}"))],
            null,
            (job, summary, logs) => new VerifyRun(job.ExitCode, job.Report, summary, logs),
            (exitCode, error, logs, _) => new VerifyRun(exitCode, null, error, logs),
            cancellationToken);
}

/// <summary>What an in-process verify produced.</summary>
internal sealed record VerifyRun(int? ExitCode, VerifyReport? Report, string Summary, CapturingLoggerProvider Logs)
{
    public VerifyReport RequireReport() =>
        Report ?? throw new Xunit.Sdk.XunitException($"no report; exit {ExitCode}; summary: {Summary}; logs:{Environment.NewLine}{Logs.AllText}");

    /// <summary>Every finding of the report as "kind pk/rk", sorted: what a test compares with the changes it made.</summary>
    public IReadOnlyList<string> Findings() =>
        [.. RequireReport().Examples.ByKind().SelectMany(kind => kind.Examples.Select(example => $"{kind.Kind} {example.PartitionKey}/{example.RowKey}")).Order(StringComparer.Ordinal)];
}
