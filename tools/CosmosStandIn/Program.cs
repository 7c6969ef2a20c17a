using Loader.CosmosStandIn;

// Usage: CosmosStandIn --upstream http://127.0.0.1:8082 --port 8081 --ru-per-second 5000 [...]; see CommandLine.Usage.
return await Loader.ThrottlingSimulator.ProxyProgram.RunAsync(
    args,
    CommandLine.Parse,
    CommandLine.Usage,
    async options => await StandInHost.StartAsync(options),
    (options, endpoint) => $"CosmosStandIn listening on {endpoint} -> {(options.Instant ? "nothing (instant)" : options.Upstream)}");
