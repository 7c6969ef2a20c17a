using Azure.Storage;
using Azure.Storage.Sas;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Storage.Blobs;

/// <summary>
/// Account shared access signatures for the Blob service, minted by the SDK's <see cref="AccountSasBuilder"/> the way a
/// user's tooling would (<c>az storage account generate-sas</c>), so the loader's SAS sign-in is tested against Azurite.
/// </summary>
internal static class AccountSas
{
    /// <summary>The query string (without <c>?</c>) of a signature for the Blob service of the account, e.g. read and list.</summary>
    public static string Create(string accountName, string accountKey, AccountSasPermissions permissions, DateTimeOffset expiry) =>
        new AccountSasBuilder(permissions, expiry, AccountSasServices.Blobs, AccountSasResourceTypes.All) { Protocol = SasProtocol.HttpsAndHttp }
            .ToSasQueryParameters(new StorageSharedKeyCredential(accountName, accountKey))
            .ToString();

    /// <summary>A signature of Azurite's development account that may read and list blobs, and nothing else, for an hour.</summary>
    public static string ReadAndListOnAzurite() =>
        Create("devstoreaccount1", AzuriteProcess.DevelopmentAccountKey, AccountSasPermissions.Read | AccountSasPermissions.List, DateTimeOffset.UtcNow.AddHours(1));
}
