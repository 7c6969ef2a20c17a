using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Hosting;

switch (LoaderSwitches.Parse(args).Kind)
{
    case LoaderCommandKind.Help:
        await Console.Out.WriteAsync(HelpText.Build());
        return ExitCodes.Success;
    case LoaderCommandKind.Version:
        await Console.Out.WriteLineAsync(LoaderVersion.Informational);
        return ExitCodes.Success;
}

HostApplicationBuilder? builder = null;
try
{
    builder = LoaderHost.CreateBuilder(args);
    using var host = builder.Build();
    await host.RunAsync();
    return Environment.ExitCode;
}
catch (Exception exception)
{
    // The settings as far as they were read say which values are secret; before that, the rule alone.
    return await StartupFailure.ReportAsync(exception, Console.Error, SecretSettings.RedactionOf(builder?.Configuration));
}
