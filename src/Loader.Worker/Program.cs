using Loader.Worker.Hosting;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

switch (LoaderCommand.Parse(args).Kind)
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
catch (OptionsValidationException exception)
{
    await Console.Error.WriteLineAsync("Invalid settings; nothing was loaded:");
    foreach (var failure in exception.Failures)
    {
        await Console.Error.WriteLineAsync("  - " + failure);
    }

    await Console.Error.WriteLineAsync("(--help lists every setting with its switch, default and meaning)");

    return ExitCodes.InvalidConfiguration;
}
catch (InvalidOperationException exception) when (exception.Message.StartsWith("Failed to convert configuration value", StringComparison.Ordinal))
{
    // The binder names the key and the value: "Failed to convert configuration value 'x' at 'Loader:BatchSize' to type 'System.Int32'."
    await Console.Error.WriteLineAsync("Invalid settings; nothing was loaded:");
    await Console.Error.WriteLineAsync("  - " + exception.Message);
    return ExitCodes.InvalidConfiguration;
}
catch (Exception exception)
{
    // Start-up failed before a load could report anything (the backend's client could not be built, say).
    await Console.Error.WriteLineAsync($"The loader could not start; nothing was loaded: {exception.GetBaseException().Message}");
    return ExitCodes.InternalError;
}
