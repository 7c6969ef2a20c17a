using System.Globalization;
using static Loader.ThrottlingSimulator.OptionChecks;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// How the simulator behaves. Every property has a command-line option of the same name in kebab case
/// (see <see cref="CommandLine"/>); the defaults are those of the command line.
/// </summary>
public sealed record SimulatorOptions
{
    /// <summary>
    /// The Table service to forward to, such as Azurite's <c>http://127.0.0.1:10002</c>. Only its scheme, host
    /// and port are used: requests already carry the account in their path, and the signature covers that path.
    /// </summary>
    public Uri Upstream { get; init; } = new("http://127.0.0.1:10002");

    /// <summary>The address to listen on; loopback unless told otherwise, as the simulator checks no credentials itself.</summary>
    public string Host { get; init; } = "127.0.0.1";

    /// <summary>The port to listen on; 0 picks a free one (see <see cref="SimulatorHost.Port"/>).</summary>
    public int Port { get; init; }

    /// <summary>Request units per second the account may spend; 0 turns the account budget off.</summary>
    public double RuPerSecond { get; init; } = 10_000;

    /// <summary>How many seconds of unspent budget the buckets can save up.</summary>
    public double BurstSeconds { get; init; } = 1;

    /// <summary>Request units per started kilobyte of an entity's JSON body.</summary>
    public double RuPerKilobyte { get; init; } = RequestCostModel.DefaultRuPerKilobyte;

    /// <summary>Request units per second each partition key may spend; 0 turns the partition budget off.</summary>
    public double PartitionRuPerSecond { get; init; }

    /// <summary>Share of batches answered 503 ServerBusy without being forwarded.</summary>
    public double Fault503Rate { get; init; }

    /// <summary>Share of batches answered 500 OperationTimedOut without being forwarded.</summary>
    public double Fault500Rate { get; init; }

    /// <summary>Share of batches whose connection is cut without an answer.</summary>
    public double DropRate { get; init; }

    /// <summary>Share of batches held for <see cref="HoldMs"/> before they go on: a service that answers later than the client waits.</summary>
    public double HoldRate { get; init; }

    /// <summary>How long a held batch is held, in milliseconds; if the client is still waiting, the batch then goes on as any other.</summary>
    public int HoldMs { get; init; }

    /// <summary>Delay added before a batch is forwarded, in milliseconds.</summary>
    public int LatencyMs { get; init; }

    /// <summary>Up to this many further milliseconds of delay, uniformly drawn per batch.</summary>
    public int LatencyJitterMs { get; init; }

    /// <summary>
    /// Answer every batch that passes the faults and the budget with success at once, and every other request as a
    /// service with an empty table would, instead of forwarding anything: a Table endpoint that costs nothing, to
    /// measure a client's own ceiling. <see cref="Upstream"/> is not used.
    /// </summary>
    public bool Instant { get; init; }

    /// <summary>Seed of the random draws (faults, jitter), so a run can be repeated; none draws a fresh one.</summary>
    public int? Seed { get; init; }

    /// <summary>Throws <see cref="ArgumentException"/> naming the first setting that makes no sense.</summary>
    public void Validate()
    {
        if (!Upstream.IsAbsoluteUri || (Upstream.Scheme != Uri.UriSchemeHttp && Upstream.Scheme != Uri.UriSchemeHttps))
        {
            throw new ArgumentException("--upstream must be an absolute http(s) URL.");
        }

        RequirePortAndBudget(Port, RuPerSecond, PartitionRuPerSecond, BurstSeconds, RuPerKilobyte);
        Require(IsRate(Fault503Rate), "--fault-503-rate must be between 0 and 1.");
        Require(IsRate(Fault500Rate), "--fault-500-rate must be between 0 and 1.");
        Require(IsRate(DropRate), "--drop-rate must be between 0 and 1.");
        Require(IsRate(HoldRate), "--hold-rate must be between 0 and 1.");
        Require(HoldMs >= 0, "--hold-ms must not be negative.");
        Require(HoldRate == 0 || HoldMs > 0, "--hold-rate needs --hold-ms: how long a held batch is held.");

        // One draw per batch picks at most one fault, so the rates share the unit interval.
        var faultRates = Fault503Rate + Fault500Rate + DropRate + HoldRate;
        Require(faultRates <= 1, string.Create(
            CultureInfo.InvariantCulture,
            $"the fault rates add up to {faultRates}; together they must not exceed 1."));
        Require(LatencyMs >= 0, "--latency-ms must not be negative.");
        Require(LatencyJitterMs >= 0, "--latency-jitter-ms must not be negative.");
    }

    private static bool IsRate(double rate) => rate is >= 0 and <= 1;
}
