using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;

namespace Loader.Worker.Configuration;

/// <summary>
/// Prices <c>--estimate</c> turns a load into money with (<c>Loader:Estimate:Prices</c>). The defaults are Azure's public
/// pay-as-you-go list prices in US dollars for a single-region account in East US, as the team knew them on
/// <see cref="DefaultsDate"/>; they were not fetched (the build machine has no internet), and they vary by region,
/// redundancy, reservations and agreements: set your own.
/// </summary>
internal sealed class PriceOptions
{
    /// <summary>The day the default prices were set.</summary>
    public const string DefaultsDate = "2026-11-23";

    /// <summary><see cref="decimal.MaxValue"/>: a price is never negative and has no ceiling but its type's (the planner multiplies in double).</summary>
    private const string MostMoney = "79228162514264337593543950335";

    /// <summary>Currency the prices are in; only printed.</summary>
    [Accepts("any text; only printed")]
    public string Currency { get; set; } = "USD";

    /// <summary>Cosmos DB serverless: price of one million request units (default 0.25, list price as of 2026-11-23).</summary>
    [Range(typeof(decimal), "0", MostMoney)]
    public decimal PerMillionRequestUnits { get; set; } = 0.25m;

    /// <summary>Cosmos DB provisioned throughput: price of 100 RU/s for one hour, billed by started hour (default 0.008, list price as of 2026-11-23).</summary>
    [Range(typeof(decimal), "0", MostMoney)]
    public decimal PerHundredRequestUnitsPerSecondHour { get; set; } = 0.008m;

    /// <summary>Azure Table Storage: price of 10,000 transactions, an entity group transaction (batch) counting as one (default 0.00036, standard LRS list price as of 2026-11-23).</summary>
    [Range(typeof(decimal), "0", MostMoney)]
    public decimal PerTenThousandTableTransactions { get; set; } = 0.00036m;

    /// <summary>Azure Table Storage: price of one GB stored for a month (default 0.045, standard LRS list price as of 2026-11-23).</summary>
    [Range(typeof(decimal), "0", MostMoney)]
    public decimal TableStoragePerGigabyteMonth { get; set; } = 0.045m;

    /// <summary>Cosmos DB: price of one GB of transactional storage for a month (default 0.25, list price as of 2026-11-23).</summary>
    [Range(typeof(decimal), "0", MostMoney)]
    public decimal CosmosStoragePerGigabyteMonth { get; set; } = 0.25m;
}
