using Azure;

namespace Loader.Worker.Storage.Blobs;

/// <summary>A blob of the input as the service described it when the load began: its name in the container, its size, its version.</summary>
internal sealed record InputBlob(string Name, long Length, ETag ETag)
{
    /// <summary>
    /// Headers quote an ETag, listings may not; both become the same quoted <see cref="Azure.ETag"/>, so a checkpoint
    /// names a version the same way whichever call found it.
    /// </summary>
    public static InputBlob Of(string name, long length, ETag etag)
    {
        var value = etag.ToString();
        return new InputBlob(name, length, new ETag(value.Length > 0 && value[0] != '"' && !value.StartsWith("W/", StringComparison.Ordinal) ? $"\"{value}\"" : value));
    }
}
