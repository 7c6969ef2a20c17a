using Loader.Worker.Hosting;
using Microsoft.Extensions.Hosting;

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
