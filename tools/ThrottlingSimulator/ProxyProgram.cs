namespace Loader.ThrottlingSimulator;

/// <summary>The <c>Main</c> of a test proxy: read the options (exit 2 with the usage when they are wrong), start, print one line scripts can wait for, run until stopped.</summary>
public static class ProxyProgram
{
    public static async Task<int> RunAsync<TOptions>(
        IReadOnlyList<string> args, Func<IReadOnlyList<string>, TOptions> parse, string usage, Func<TOptions, Task<ProxyHost>> start, Func<TOptions, Uri, string> startLine)
    {
        ArgumentNullException.ThrowIfNull(parse);
        ArgumentNullException.ThrowIfNull(start);
        ArgumentNullException.ThrowIfNull(startLine);
        TOptions options;
        try
        {
            options = parse(args);
        }
        catch (ArgumentException exception)
        {
            await Console.Error.WriteLineAsync(exception.Message);
            await Console.Error.WriteLineAsync(usage);
            return 2;
        }

        await using var host = await start(options);
        Console.WriteLine(startLine(options, host.Endpoint));
        await host.WaitForShutdownAsync();
        return 0;
    }
}
