namespace Loader.Worker.Configuration;

/// <summary>The store a load writes to.</summary>
internal enum BackendKind
{
    /// <summary>Azure Table Storage, Azurite, or Azure Cosmos DB for Table</summary>
    Tables,

    /// <summary>Azure Cosmos DB for NoSQL</summary>
    Cosmos,
}
