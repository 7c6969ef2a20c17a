using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Verify;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>Runs <c>verify</c> through the loader's real host in-process, as <c>loader verify --settings...</c> would, and captures what it produced.</summary>
internal static class VerifyRunner
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(10);

    public static async Task<VerifyRun> RunAsync(IReadOnlyDictionary<string, string?> settings, CancellationToken cancellationToken, params string[] switches)
    {
        var args = new[] { "verify" }.Concat(switches).Concat(settings.Select(setting => $"--{setting.Key}={setting.Value}")).ToArray();
        var builder = LoaderHost.CreateBuilder(args);
        var summary = new StringWriter();
        var logs = new CapturingLoggerProvider();
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(logs);
        builder.Services.AddSingleton(provider => new SummaryOutput(summary, provider.GetRequiredService<Redaction>()));
        try
        {
            using var host = builder.Build();
            var job = host.Services.GetRequiredService<VerifyJob>();
            await host.RunAsync(cancellationToken).WaitAsync(s_timeout, TestContext.Current.CancellationToken);
            return new VerifyRun(job.ExitCode, job.Report, summary.ToString(), logs);
        }
        catch (Exception exception) when (StartupFailure.IsInvalidSettings(exception))
        {
            var error = new StringWriter();
            var exitCode = await StartupFailure.ReportAsync(exception, error, SecretSettings.RedactionOf(builder.Configuration));
            return new VerifyRun(exitCode, null, error.ToString(), logs);
        }
    }
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
