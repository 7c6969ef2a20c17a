namespace Loader.CosmosStandIn.Upstream;

/// <summary>A container's address, from a request path such as <c>/dbs/loads/colls/flights/docs</c>.</summary>
public sealed record ContainerPath(string Database, string Container)
{
    /// <summary>The container a <c>…/docs</c> path belongs to, or null for any other path.</summary>
    public static ContainerPath? FromDocumentsPath(string path)
    {
        var parts = path.Trim('/').Split('/');
        return parts is ["dbs", var database, "colls", var container, "docs"]
            ? new ContainerPath(Uri.UnescapeDataString(database), Uri.UnescapeDataString(container))
            : null;
    }

    public string Link => $"/dbs/{Uri.EscapeDataString(Database)}/colls/{Uri.EscapeDataString(Container)}";
}
