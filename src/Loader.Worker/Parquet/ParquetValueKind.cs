namespace Loader.Worker.Parquet;

/// <summary>How a Parquet leaf column's values are read and converted: one per CLR type the Parquet reader hands out.</summary>
internal enum ParquetValueKind
{
    Boolean,
    SByte,
    Byte,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Half,
    Single,
    Double,
    Decimal,
    BigDecimal,
    String,
    Binary,
    Timestamp,
    Date,
    Guid,

    /// <summary>TIME in milliseconds (INT32) since midnight.</summary>
    TimeMillis,

    /// <summary>TIME in microseconds (INT64) since midnight.</summary>
    TimeMicros,

    /// <summary>TIME in nanoseconds (INT64) since midnight.</summary>
    TimeNanos,
}
