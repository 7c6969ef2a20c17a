using Azure;

namespace Loader.Worker.Storage.Blobs;

/// <summary>A small blob's whole content and the version it was read at, for a later conditional write.</summary>
public sealed record BlobDownload(BinaryData Content, ETag ETag);
