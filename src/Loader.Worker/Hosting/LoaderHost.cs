using Loader.Abstractions;
using Loader.Worker.Checks;
using Loader.Worker.Configuration;
using Loader.Worker.Estimate;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Terminal;
using Loader.Worker.Security;
using Loader.Worker.Shards;
using Loader.Worker.Shards.Plan;
using Loader.Worker.Shards.Status;
using Loader.Worker.Shards.Work;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Storage.Queues;
using Loader.Worker.Telemetry;
using Loader.Worker.Verify;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.EnvironmentVariables;
using Microsoft.Extensions.Configuration.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Spectre.Console;

namespace Loader.Worker.Hosting;

/// <summary>Builds the generic host that runs one load: configuration from appsettings.json, environment (<c>Loader__Input</c>) and command line (<c>--Loader:Input=path</c> or <c>--input path</c>).</summary>
internal static class LoaderHost
{
    public static HostApplicationBuilder CreateBuilder(string[] args)
    {
        var command = LoaderSwitches.Parse(args);
        var commandLine = CommandLineArguments.Parse(CommandLineAliases.Normalize(command.Arguments), CommandLineAliases.SwitchMappings);
        var normalized = commandLine.Usable;
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings
        {
            Args = normalized,
            ContentRootPath = AppContext.BaseDirectory,
        });
        AddSettingsFile(builder.Configuration, commandLine.ValueOf(CommandLineAliases.SettingsFileKey));
        builder.Configuration.AddCommandLine(normalized, CommandLineAliases.SwitchMappings.ToDictionary());
        builder.Services.AddSingleton(commandLine);

        var outputIsTerminal = !Console.IsOutputRedirected;
        var logFormat = ConsoleLogging.Resolve(builder.Configuration, outputIsTerminal);
        if (ConsoleLogging.WantsProgressBar(builder.Configuration, logFormat, outputIsTerminal))
        {
            // A person at a terminal: a live bar, and the log written above it through the same console.
            var console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Out) });
            builder.Logging.ClearProviders();
            builder.Logging.AddProvider(new TerminalLoggerProvider(console, TimeProvider.System));
            builder.Logging.AddFilter<TerminalLoggerProvider>(typeof(ProgressReporter).FullName, LogLevel.Warning); // the bar says it
            builder.Services.AddSingleton(new TerminalProgress(console, TimeProvider.System));
        }
        else
        {
            builder.Logging.AddLoaderConsole(logFormat);
        }

        builder.Services.AddSingleton(provider => new SummaryOutput(Console.Out, provider.GetRequiredService<Redaction>(), logFormat));
        builder.Services.AddBulkLoader(builder.Configuration, command.Kind);
        return builder;
    }

    /// <summary>
    /// <c>--settings file.json</c> (or <c>--Loader:SettingsFile=file.json</c>): a load described in a file (same shape as
    /// appsettings.json). It sits above appsettings.json and below the environment and the command line, so either can
    /// still override it.
    /// </summary>
    private static void AddSettingsFile(ConfigurationManager configuration, string? file)
    {
        if (file is null)
        {
            return;
        }

        const string setting = $"{CommandLineAliases.SettingsFileKey} (--settings)";
        string fullPath;
        try
        {
            fullPath = Path.GetFullPath(file);
        }
        catch (ArgumentException)
        {
            throw InvalidSettingsFile($"{setting} is not a path of a file: '{file}'.");
        }

        if (!File.Exists(fullPath))
        {
            throw InvalidSettingsFile($"{setting} '{file}' does not exist ({fullPath}).");
        }

        var source = new JsonConfigurationSource { Path = fullPath, Optional = false, ReloadOnChange = false };
        source.ResolveFileProvider();
        var sources = configuration.Sources;
        // The application's environment source, not the host's DOTNET_-prefixed one, which comes before appsettings.json.
        var environment = sources.Select((s, i) => (s, i)).FirstOrDefault(p => p.s is EnvironmentVariablesConfigurationSource { Prefix: null or "" });
        try
        {
            sources.Insert(environment.s is null ? sources.Count : environment.i, source);
        }
        catch (Exception exception) when (exception is InvalidDataException or FormatException)
        {
            // The JSON parser's words: the line and byte of the problem, or a top level that is no object.
            throw InvalidSettingsFile($"{setting} '{file}' is not a JSON object of settings: {exception.GetBaseException().Message}");
        }
    }

    /// <summary>A settings file that cannot be read: listed at start as an invalid setting (exit 2), as the others are.</summary>
    private static OptionsValidationException InvalidSettingsFile(string message) =>
        new(CommandLineAliases.SettingsFileKey, typeof(LoaderOptions), [message]);

    /// <summary>The loader's services, and as the host's job a load, a verb's job (<c>verify</c>, a sharded load's) or, for <see cref="LoaderCommandKind.Estimate"/>, an estimate.</summary>
    public static IServiceCollection AddBulkLoader(this IServiceCollection services, IConfiguration configuration, LoaderCommandKind command = LoaderCommandKind.Load)
    {
        services.AddOptions<LoaderOptions>().BindConfiguration(LoaderOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<LoaderOptions>, LoaderOptionsValidator>();
        services.AddSingleton<IValidateOptions<LoaderOptions>, ColumnTypeSettingsValidator>();
        services.TryAddSingleton(CommandLineArguments.None);
        services.AddSingleton<IValidateOptions<LoaderOptions>, UnknownSettingsValidator>();
        services.AddOptions<HostOptions>().Configure<IOptions<LoaderOptions>>((host, loader) =>
            host.ShutdownTimeout = loader.Value.ShutdownGracePeriod + TimeSpan.FromSeconds(10));
        services.AddMetrics();
        services.AddSingleton(TimeProvider.System);
        // What the loader writes goes through this: the logs (every provider), summaries, reports and state.
        services.AddSingleton(_ => SecretSettings.RedactionOf(configuration));
        RedactingLoggerFactory.Register(services);
        services.TryAddSingleton(provider => new SummaryOutput(Console.Out, provider.GetRequiredService<Redaction>()));
        services.AddSingleton<LoaderMetrics>();
        services.AddSingleton<LoadStatistics>();
        services.AddSingleton<IBackendAdapter>(provider =>
            BackendFactory.Create(provider.GetRequiredService<IOptions<LoaderOptions>>().Value, provider.GetRequiredService<TimeProvider>(), provider.GetRequiredService<ILoggerFactory>()));
        services.AddSingleton(provider => new BlobClientFactory(provider.GetRequiredService<IOptions<LoaderOptions>>().Value.Blob));
        services.AddSingleton<OutputFiles>();
        services.AddSingleton<OutputPreflight>();
        services.AddSingleton<ReportPublisher>();
        services.AddSingleton<InputOpener>();
        services.AddSingleton<LoadPipelineFactory>();
        services.AddSingleton(provider => provider.GetRequiredService<LoadPipelineFactory>().Create(
            provider.GetRequiredService<IOptions<LoaderOptions>>().Value,
            provider.GetRequiredService<IBackendAdapter>(),
            provider.GetRequiredService<LoadStatistics>(),
            provider.GetService<TerminalProgress>()));
        services.AddSingleton<LoadJob>();
        services.AddSingleton<ReadinessCheck>();
        services.AddSingleton<CheckJob>();
        services.AddSingleton<LoadEstimator>();
        services.AddSingleton<EstimateJob>();
        AddShardedLoads(services);
        AddVerify(services);
        // Before the job: started first, stopped (and flushed) last.
        services.AddMetricsExport(configuration);
        if (command == LoaderCommandKind.Estimate)
        {
            services.AddHostedService(provider => provider.GetRequiredService<EstimateJob>());
        }
        else if (CommandOf(configuration) == LoaderCommand.Load && ChecksOnly(configuration))
        {
            services.AddHostedService(provider => provider.GetRequiredService<CheckJob>());
        }
        else if (CommandOf(configuration) == LoaderCommand.Load)
        {
            services.AddHostedService(provider => provider.GetRequiredService<LoadJob>());
        }
        else if (CommandOf(configuration) == LoaderCommand.Verify)
        {
            services.AddHostedService(provider => provider.GetRequiredService<VerifyJob>());
        }
        else
        {
            services.AddHostedService(provider => provider.GetRequiredService<ShardJob>());
        }

        return services;
    }

    /// <summary>The verbs of a sharded load: <c>plan</c>, <c>work</c>, <c>status</c>.</summary>
    private static void AddShardedLoads(IServiceCollection services)
    {
        services.AddSingleton(provider => new QueueClientFactory(provider.GetRequiredService<IOptions<LoaderOptions>>().Value.Blob));
        services.AddSingleton<ShardedLoadFactory>();
        services.AddSingleton<ShardPlanner>();
        services.AddSingleton<PlanCommand>();
        services.AddSingleton<ShardRun>();
        services.AddSingleton<ShardWorker>();
        services.AddSingleton<StatusCommand>();
        services.AddSingleton<ShardJob>();
    }

    /// <summary><c>verify</c>: the input read again as the load reads it, and the target read back through the load's adapter.</summary>
    private static void AddVerify(IServiceCollection services)
    {
        services.AddSingleton(provider => new VerifyInput(
            provider.GetRequiredService<InputOpener>(),
            provider.GetRequiredService<OutputFiles>(),
            provider.GetRequiredService<IOptions<LoaderOptions>>().Value,
            provider.GetRequiredService<IBackendAdapter>(),
            provider.GetRequiredService<ILogger<VerifyInput>>()));
        services.AddSingleton(provider => new TargetVerifier(
            provider.GetRequiredService<IOptions<LoaderOptions>>().Value,
            provider.GetRequiredService<IBackendAdapter>(),
            provider.GetRequiredService<VerifyInput>(),
            provider.GetRequiredService<LoadStatistics>(),
            provider.GetRequiredService<TimeProvider>(),
            provider.GetRequiredService<ILogger<TargetVerifier>>()));
        services.AddSingleton<VerifyJob>();
    }

    /// <summary>Whether <c>Loader:Check</c> asks for <c>--check</c>; a value that is no boolean is left to the options binder to refuse, naming it.</summary>
    private static bool ChecksOnly(IConfiguration configuration) =>
        bool.TryParse(configuration[$"{LoaderOptions.SectionName}:{nameof(LoaderOptions.Check)}"], out var check) && check;

    /// <summary>The command the configuration names; a value that is none is left to the options binder to refuse, naming it.</summary>
    private static LoaderCommand CommandOf(IConfiguration configuration) =>
        Enum.TryParse<LoaderCommand>(configuration[$"{LoaderOptions.SectionName}:Command"], ignoreCase: true, out var command) ? command : LoaderCommand.Load;
}
