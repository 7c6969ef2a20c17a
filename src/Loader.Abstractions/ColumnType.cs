namespace Loader.Abstractions;

/// <summary>The type a CSV column is converted to before it is written. Names follow the Table service's EDM types, but for <see cref="Json"/>.</summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1720:Identifier contains type name", Justification = "The names are the EDM type names users write in settings.")]
public enum ColumnType
{
    String,
    Int32,
    Int64,
    Double,
    Boolean,
    DateTime,
    Guid,

    /// <summary>A JSON value (object, array, number, string, true, false, null) embedded as it is: Cosmos DB only.</summary>
    Json,

    /// <summary>Bytes: Edm.Binary in Table Storage, base64 text in Cosmos DB. Read from Parquet BYTE_ARRAY columns; not a CSV column type.</summary>
    Binary,
}
