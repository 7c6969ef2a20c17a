using Loader.Worker.Hosting;
using Loader.Worker.Reporting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Loader.Worker.Security;
using Loader.Worker.Configuration;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>Runs the loader's real host in-process, as the command line would, and captures what it produced.</summary>
internal static class LoaderRunner
{
    /// <summary>The longest any in-process load of the tests may take: a load that hangs fails its test instead of holding the run.</summary>
    private static readonly TimeSpan s_loadTimeout = TimeSpan.FromMinutes(10);

    public static async Task<LoaderRun> RunAsync(
        IReadOnlyDictionary<string, string?> settings,
        CancellationToken cancellationToken,
        Action<IServiceCollection>? configureServices = null)
    {
        var args = settings.Select(setting => $"--{setting.Key}={setting.Value}").ToArray();
        return await RunWithArgumentsAsync(args, cancellationToken, configureServices);
    }

    /// <summary>Starts a load in-process and returns at once, so a test can act while it runs (stop it, take the service away).</summary>
    public static ObservedLoad Start(IReadOnlyDictionary<string, string?> settings, CancellationToken stop, Action<IServiceCollection>? configureServices = null)
    {
        var observed = new ObservedLoad();
        observed.Completion = RunAsync(settings, stop, services =>
        {
            services.AddSingleton(observed.Attach);
            configureServices?.Invoke(services);
        });
        return observed;
    }

    public static Task<LoaderRun> RunWithArgumentsAsync(
        string[] args,
        CancellationToken cancellationToken,
        Action<IServiceCollection>? configureServices = null) =>
        RunHostAsync<LoadJob, LoaderRun>(
            args,
            configureServices,
            (job, summary, logs) => new LoaderRun(job.ExitCode, job.Report, summary, logs, null),
            (exitCode, error, logs, invalid) => new LoaderRun(exitCode, null, "", logs, invalid) { Error = error },
            cancellationToken);

    /// <summary>
    /// Runs the real host with <paramref name="args"/> until its job <typeparamref name="TJob"/> ends, the summary and the
    /// logs captured: <paramref name="ended"/> says what the job produced. A start-up failure is what the program prints
    /// and returns (Program.cs), handed to <paramref name="refused"/>; any other is a defect the test shows as it is.
    /// </summary>
    public static async Task<T> RunHostAsync<TJob, T>(
        string[] args,
        Action<IServiceCollection>? configureServices,
        Func<TJob, string, CapturingLoggerProvider, T> ended,
        Func<int, string, CapturingLoggerProvider, OptionsValidationException?, T> refused,
        CancellationToken cancellationToken)
        where TJob : notnull
    {
        var builder = LoaderHost.CreateBuilder(args);
        var summary = new StringWriter();
        var logs = new CapturingLoggerProvider();
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(logs);
        builder.Logging.SetMinimumLevel(LogLevel.Debug);
        builder.Services.AddSingleton(provider => new SummaryOutput(summary, provider.GetRequiredService<Redaction>()));
        configureServices?.Invoke(builder.Services);
        try
        {
            using var host = builder.Build();
            var job = host.Services.GetRequiredService<TJob>();
            // cancellationToken stops the run as SIGTERM does; the host then still ends it (checkpoint, report) and returns.
            await host.RunAsync(cancellationToken).WaitAsync(s_loadTimeout, TestContext.Current.CancellationToken);
            return ended(job, summary.ToString(), logs);
        }
        catch (TimeoutException)
        {
            throw new Xunit.Sdk.XunitException($"the run did not end within {s_loadTimeout}; logs:{Environment.NewLine}{logs.AllText}");
        }
        catch (Exception exception) when (StartupFailure.IsInvalidSettings(exception))
        {
            var error = new StringWriter();
            var exitCode = await StartupFailure.ReportAsync(exception, error, SecretSettings.RedactionOf(builder.Configuration));
            return refused(exitCode, error.ToString(), logs, exception as OptionsValidationException);
        }
    }
}

/// <summary>What an in-process load produced.</summary>
internal sealed record LoaderRun(int? ExitCode, LoadReport? Report, string Summary, CapturingLoggerProvider Logs, OptionsValidationException? ValidationError)
{
    /// <summary>What the program would have printed on standard error: the listing of settings that stopped it at start.</summary>
    public string Error { get; init; } = "";

    public LoadReport RequireReport() =>
        Report ?? throw new Xunit.Sdk.XunitException($"no report; exit {ExitCode}; standard error: {Error}; logs:{Environment.NewLine}{Logs.AllText}");
}

/// <summary>A load running in-process, with the counts it has reached so far.</summary>
internal sealed class ObservedLoad
{
    private LoadStatistics? _statistics;

    public Task<LoaderRun> Completion { get; internal set; } = null!;

    /// <summary>Returns once the load has written <paramref name="rows"/> rows; fails the test if it ends first.</summary>
    public async Task WhenWrittenAsync(long rows, CancellationToken cancellationToken)
    {
        while (Volatile.Read(ref _statistics)?.Snapshot().RowsWritten is not { } written || written < rows)
        {
            if (Completion.IsCompleted)
            {
                var run = await Completion;
                throw new Xunit.Sdk.XunitException($"the load ended (exit {run.ExitCode}) before it had written {rows:N0} rows; logs:{Environment.NewLine}{run.Logs.AllText}");
            }

            await Task.Delay(10, cancellationToken);
        }
    }

    internal LoadStatistics Attach(IServiceProvider services)
    {
        var statistics = new LoadStatistics(services.GetRequiredService<LoaderMetrics>(), services.GetRequiredService<TimeProvider>());
        Volatile.Write(ref _statistics, statistics);
        return statistics;
    }
}
