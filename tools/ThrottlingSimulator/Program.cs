using Loader.ThrottlingSimulator;

// Usage: ThrottlingSimulator --upstream http://127.0.0.1:10002 --port 10102 --ru-per-second 5000 [...]; see CommandLine.Usage.
return await ProxyProgram.RunAsync(
    args,
    CommandLine.Parse,
    CommandLine.Usage,
    async options => await SimulatorHost.StartAsync(options),
    (options, endpoint) => $"ThrottlingSimulator listening on {endpoint} -> {options.Upstream}");
