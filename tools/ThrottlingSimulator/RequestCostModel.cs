namespace Loader.ThrottlingSimulator;

/// <summary>
/// What a batch costs in request units. Cosmos DB charges a write by the size of the item and the paths it
/// indexes; about 5 RU for a 1 KB item with default indexing. The model keeps the size part only: each entity
/// operation costs <c>ruPerKilobyte × ceil(bodyBytes / 1024)</c>, at least one kilobyte's worth (a delete or
/// an empty body still costs), and a batch costs the sum of its operations.
/// </summary>
public static class RequestCostModel
{
    /// <summary>Request units per started kilobyte of entity JSON: Cosmos DB's rough price of a 1 KB write.</summary>
    public const double DefaultRuPerKilobyte = 5;

    /// <summary>The size step the charge rises by.</summary>
    public const int KilobyteBytes = 1024;

    /// <summary>The fewest kilobytes an operation is charged for.</summary>
    public const int MinimumKilobytesPerOperation = 1;

    public static double OperationCharge(int bodyBytes, double ruPerKilobyte)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(bodyBytes);
        var kilobytes = Math.Max(MinimumKilobytesPerOperation, ((long)bodyBytes + KilobyteBytes - 1) / KilobyteBytes);
        return kilobytes * ruPerKilobyte;
    }

    public static double BatchCharge(BatchScan scan, double ruPerKilobyte)
    {
        ArgumentNullException.ThrowIfNull(scan);
        var total = 0.0;
        foreach (var operation in scan.Operations)
        {
            total += OperationCharge(operation.BodyBytes, ruPerKilobyte);
        }

        return total;
    }
}
