using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>Where and how the Tables backend writes (<c>Loader:Tables</c>).</summary>
internal sealed class TablesOptions
{
    public const string DevelopmentStorage = "UseDevelopmentStorage=true";

    /// <summary>Storage (or Cosmos DB for Table) connection string. Used when <see cref="Endpoint"/> is empty; defaults to the local emulator.</summary>
    [Accepts("a storage or Cosmos DB for Table connection string; optional (the local emulator when neither it nor Endpoint is set)")]
    public string? ConnectionString { get; set; }

    /// <summary>
    /// Table service endpoint, e.g. <c>https://account.table.core.windows.net</c>, reached with <c>DefaultAzureCredential</c>,
    /// or with the shared access signature its URL carries (<c>?sv=...&amp;sig=...</c>).
    /// </summary>
    [Accepts("an http(s) URL of the Table service, with a shared access signature or none; optional, instead of ConnectionString")]
    public string? Endpoint { get; set; }

    /// <summary>Target table; created when missing unless <see cref="CreateTable"/> is false.</summary>
    [Accepts("3 to 63 letters and digits, starting with a letter, not 'tables'; required for the Tables backend")]
    public string Table { get; set; } = "";

    /// <summary>Create the table when it is missing; <c>false</c>: it must exist (checked at start).</summary>
    public bool CreateTable { get; set; } = true;

    /// <summary>
    /// How each batch's entity group transaction is written and sent: <see cref="TableWriter.Direct"/> (the loader writes
    /// the body and sends it through the SDK's HTTP pipeline) or <see cref="TableWriter.Sdk"/> (<c>TableClient.SubmitTransactionAsync</c>).
    /// </summary>
    public TableWriter Writer { get; set; } = TableWriter.Direct;

    /// <summary>The connection string in effect: the configured one, or the emulator's when neither it nor an endpoint is set.</summary>
    public string EffectiveConnectionString =>
        string.IsNullOrWhiteSpace(ConnectionString) ? DevelopmentStorage : ConnectionString;

    /// <summary>
    /// The service endpoint the settings name, without any signature: from <see cref="Endpoint"/>, or as the SDK reads
    /// it from the connection string.
    /// </summary>
    /// <exception cref="FormatException">The connection string cannot be read (see <see cref="CheckConnectionString"/>).</exception>
    public Uri ServiceEndpoint()
    {
        if (!string.IsNullOrWhiteSpace(Endpoint))
        {
            return SplitSignature(Endpoint).Endpoint;
        }

        var problem = CheckConnectionString(EffectiveConnectionString, out var endpoint);
        return endpoint ?? throw new FormatException(problem);
    }

    /// <summary>
    /// Reads a connection string the way the SDK will; returns why it cannot, in words that never quote the string
    /// (it may hold a key), or null.
    /// </summary>
    public static string? CheckConnectionString(string connectionString, out Uri? endpoint)
    {
        endpoint = null;
        try
        {
            endpoint = new TableServiceClient(connectionString).Uri;
            return null;
        }
        catch (FormatException exception)
        {
            // The SDK's format messages name the rule broken (e.g. a key that is not base64), never the value.
            return exception.Message;
        }
        catch (Exception exception) when (exception is ArgumentException or InvalidOperationException)
        {
            // These messages may quote a segment of the string, which may be a key: not repeated.
            return "expected Name=Value segments with AccountName and AccountKey (optionally TableEndpoint or EndpointSuffix), "
                + "TableEndpoint and SharedAccessSignature, or UseDevelopmentStorage=true.";
        }
    }

    /// <summary>An endpoint URL and the shared access signature in its query string, if it has one.</summary>
    public static (Uri Endpoint, string? Signature) SplitSignature(string endpoint)
    {
        var uri = new Uri(endpoint);
        var query = uri.Query.TrimStart('?');
        return query.Length == 0
            ? (uri, null)
            : (new Uri(uri.GetLeftPart(UriPartial.Path)), query);
    }
}

/// <summary>How the Tables backend writes a batch.</summary>
internal enum TableWriter
{
    /// <summary>
    /// The loader writes the transaction's body from its rows and sends it through the SDK's HTTP pipeline, signed by a
    /// shared access signature (one the settings give, or one made from the account key) or an Entra ID token. Cosmos DB
    /// for Table endpoints keep the SDK's own path.
    /// </summary>
    Direct,

    /// <summary>The SDK's <c>TableClient.SubmitTransactionAsync</c>, an SDK request object per row: about three times the CPU per row.</summary>
    Sdk,
}
