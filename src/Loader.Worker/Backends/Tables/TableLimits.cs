namespace Loader.Worker.Backends.Tables;

/// <summary>The Table service's limits (Microsoft Learn: "Understanding the Table service data model" and "Scalability and performance targets for Table storage"); named once here.</summary>
internal static class TableLimits
{
    public const int MaxOperationsPerBatch = 100;

    /// <summary>A transaction's payload must stay under 4 MiB; the margin absorbs the batch envelope.</summary>
    public const long MaxBatchPayloadBytes = (4L * 1024 * 1024) - (16 * 1024);

    /// <summary>
    /// What one operation of a transaction adds around its entity's JSON: the part headers and the request line
    /// and headers the SDK writes (measured by TablesAdapterPayloadTests), without the table URL, which is counted apart.
    /// </summary>
    public const int OperationOverheadBytes = 512;

    public const int MaxEntityBytes = 1024 * 1024;

    /// <summary>255 properties including PartitionKey, RowKey and Timestamp.</summary>
    public const int MaxCustomProperties = 252;

    /// <summary>Keys are strings of up to 1 KiB, and the service counts strings in UTF-16: 512 characters (Azurite enforces the same).</summary>
    public const int MaxKeyLength = 512;

    /// <summary>String properties hold up to 64 KiB of UTF-16: 32,768 characters.</summary>
    public const int MaxStringLength = 32 * 1024;

    /// <summary>Bytes a binary property may hold: 64 KiB.</summary>
    public const int MaxBinaryLength = 64 * 1024;

    public const int MaxPropertyNameLength = 255;

    public static readonly IReadOnlySet<string> SystemPropertyNames = new HashSet<string>(["PartitionKey", "RowKey", "Timestamp"], StringComparer.Ordinal);

    /// <summary>The earliest DateTime the service stores.</summary>
    public static readonly DateTime MinDateTime = new(1601, 1, 1, 0, 0, 0, DateTimeKind.Utc);
}
