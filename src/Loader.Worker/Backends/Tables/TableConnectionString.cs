using Loader.Worker.Storage;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// The parts of a storage connection string the Table client needs: a <see cref="StorageConnectionString"/>
/// that must name a Table endpoint.
/// </summary>
public sealed record TableConnectionString(Uri TableEndpoint, string? AccountName, byte[]? AccountKey, string? SharedAccessSignature)
{
    public const string DevelopmentAccountName = StorageConnectionString.DevelopmentAccountName;

    public const string DevelopmentAccountKey = StorageConnectionString.DevelopmentAccountKey;

    /// <summary>Parses a connection string; the message of a <see cref="FormatException"/> never contains the key.</summary>
    public static TableConnectionString Parse(string connectionString)
    {
        var parsed = StorageConnectionString.Parse(connectionString);
        return new TableConnectionString(parsed.RequireTableEndpoint(), parsed.AccountName, parsed.AccountKey, parsed.SharedAccessSignature);
    }

    // The generated ToString would print the signature; nothing that logs this needs either secret.
    private bool PrintMembers(System.Text.StringBuilder builder)
    {
        builder.Append("TableEndpoint = ").Append(TableEndpoint).Append(", AccountName = ").Append(AccountName)
            .Append(AccountKey is null ? ", no AccountKey" : ", AccountKey set")
            .Append(SharedAccessSignature is null ? ", no SharedAccessSignature" : ", SharedAccessSignature set");
        return true;
    }
}
