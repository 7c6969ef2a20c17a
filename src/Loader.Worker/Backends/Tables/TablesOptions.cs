namespace Loader.Worker.Backends.Tables;

/// <summary>Where and how the Tables backend writes (<c>Loader:Tables</c>).</summary>
public sealed class TablesOptions
{
    public const string DevelopmentStorage = "UseDevelopmentStorage=true";

    /// <summary>Storage (or Cosmos DB for Table) connection string. Used when <see cref="Endpoint"/> is empty; defaults to the local emulator.</summary>
    public string? ConnectionString { get; set; }

    /// <summary>Table service endpoint, e.g. <c>https://account.table.core.windows.net</c>, reached with <c>DefaultAzureCredential</c>.</summary>
    public string? Endpoint { get; set; }

    /// <summary>Target table; created when missing unless <see cref="CreateTable"/> is false.</summary>
    public string Table { get; set; } = "";

    public bool CreateTable { get; set; } = true;

    /// <summary>The connection string in effect: the configured one, or the emulator's when neither it nor an endpoint is set.</summary>
    public string EffectiveConnectionString =>
        string.IsNullOrWhiteSpace(ConnectionString) ? DevelopmentStorage : ConnectionString;
}
