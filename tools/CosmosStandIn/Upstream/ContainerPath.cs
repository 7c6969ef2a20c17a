namespace Loader.CosmosStandIn.Upstream;

/// <summary>A container's address by name, from a request path such as <c>/dbs/loads/colls/flights/docs</c>.</summary>
public sealed record ContainerPath(string Database, string Container)
{
    public string Link => $"/dbs/{Uri.EscapeDataString(Database)}/colls/{Uri.EscapeDataString(Container)}";
}
