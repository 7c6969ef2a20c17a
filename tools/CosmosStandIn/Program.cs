using Loader.CosmosStandIn;

// Usage: CosmosStandIn --upstream http://127.0.0.1:8082 --port 8081 --ru-per-second 5000 [...]; see CommandLine.Usage.
StandInOptions options;
try
{
    options = CommandLine.Parse(args);
}
catch (ArgumentException exception)
{
    Console.Error.WriteLine(exception.Message);
    Console.Error.WriteLine(CommandLine.Usage);
    return 2;
}

await using var standIn = await StandInHost.StartAsync(options);

// One line that scripts can wait for and read the address from.
Console.WriteLine($"CosmosStandIn listening on {standIn.Endpoint} -> {options.Upstream}");
await standIn.WaitForShutdownAsync();
return 0;
