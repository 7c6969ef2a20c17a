using Loader.ThrottlingSimulator;

// Usage: ThrottlingSimulator --upstream http://127.0.0.1:10002 --port 10102 --ru-per-second 5000 [...]; see CommandLine.Usage.
SimulatorOptions options;
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

await using var simulator = await SimulatorHost.StartAsync(options);

// One line that scripts can wait for and read the address from.
Console.WriteLine($"ThrottlingSimulator listening on {simulator.Endpoint} -> {options.Upstream}");
await simulator.WaitForShutdownAsync();
return 0;
