using Loader.Worker.Hosting;
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

try
{
    using var host = LoaderHost.CreateBuilder(args).Build();
    await host.RunAsync();
    return Environment.ExitCode;
}
catch (Exception exception)
{
    return await StartupFailure.ReportAsync(exception, Console.Error);
}
