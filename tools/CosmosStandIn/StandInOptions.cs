using static Loader.ThrottlingSimulator.OptionChecks;

namespace Loader.CosmosStandIn;

/// <summary>
/// How the stand-in behaves. Every property has a command-line option of the same name in kebab case (see
/// <see cref="CommandLine"/>); the defaults are those of the command line.
/// </summary>
public sealed record StandInOptions
{
    /// <summary>The cosmosdb-server to pass requests to and apply batches on, e.g. <c>http://127.0.0.1:8082</c> (started with <c>--no-ssl</c>).</summary>
    public Uri Upstream { get; init; } = new("http://127.0.0.1:8082");

    /// <summary>The address to listen on; loopback, as the stand-in checks no credentials.</summary>
    public string Host { get; init; } = "127.0.0.1";

    /// <summary>The HTTPS port to listen on; 0 picks a free one.</summary>
    public int Port { get; init; }

    /// <summary>Request units per second the account may spend; 0 turns the budget off.</summary>
    public double RuPerSecond { get; init; }

    /// <summary>Request units per second each logical partition key may spend; 0 turns it off.</summary>
    public double PartitionRuPerSecond { get; init; }

    /// <summary>How many seconds of unspent budget the buckets can save up.</summary>
    public double BurstSeconds { get; init; } = 1;

    /// <summary>Request units per started kilobyte of a written item (reads cost one per kilobyte).</summary>
    public double RuPerKilobyte { get; init; } = ThrottlingSimulator.RequestCostModel.DefaultRuPerKilobyte;

    /// <summary>
    /// Request units per second the requests naming one throughput bucket (<c>x-ms-cosmos-throughput-bucket</c>, 1 to 5)
    /// may spend, each bucket on its own; over it they are answered 429 with sub-status 3212. 0 turns it off.
    /// </summary>
    public double BucketRuPerSecond { get; init; }

    /// <summary>
    /// Answer every request at once with no cosmosdb-server behind the stand-in: databases and containers are kept in
    /// memory as created, batches and point writes that pass the checks and the budget succeed, queries find
    /// nothing, items are not kept. A Cosmos DB endpoint that costs nothing, to measure a client's own ceiling;
    /// <see cref="Upstream"/> is not used.
    /// </summary>
    public bool Instant { get; init; }

    /// <summary>Throws <see cref="ArgumentException"/> naming the first setting that makes no sense.</summary>
    public void Validate()
    {
        // The stand-in is the TLS end the SDK talks to; behind it, plain HTTP to cosmosdb-server (--no-ssl) on loopback.
        Require(Upstream.IsAbsoluteUri && Upstream.Scheme == Uri.UriSchemeHttp, "--upstream must be an absolute http URL (cosmosdb-server started with --no-ssl).");
        RequirePortAndBudget(Port, RuPerSecond, PartitionRuPerSecond, BurstSeconds, RuPerKilobyte);
        Require(BucketRuPerSecond >= 0 && double.IsFinite(BucketRuPerSecond), "--bucket-ru-per-second must be 0 (off) or positive.");
    }
}
