using Azure;

namespace Loader.Worker.Storage.Blobs;

/// <summary>A blob as the service describes it: its name in the container, its size, and the version it is at.</summary>
public sealed record BlobItem(string Name, long Length, ETag ETag)
{
    /// <summary>Headers quote an ETag, listings may not; both become the same <see cref="Azure.ETag"/>, quoted.</summary>
    internal static ETag ParseETag(string value) =>
        new(value.Length > 0 && value[0] != '"' && !value.StartsWith("W/", StringComparison.Ordinal) ? $"\"{value}\"" : value);
}
