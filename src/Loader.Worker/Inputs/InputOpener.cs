using Azure.Storage.Blobs;
using Azure;
using Loader.Worker.Backends;
using Loader.Worker.Csv;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Storage.Blobs;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Inputs;

/// <summary>
/// Finds what <c>Loader:Input</c> names — a local file, one blob, or every blob under a prefix in name order — decides
/// how each part is compressed (<see cref="CompressionChoice"/>), and checks, before anything is written, that the parts
/// of a several-part input share one header.
/// </summary>
internal sealed partial class InputOpener(BlobClientFactory blobs, ILogger<InputOpener> logger)
{
    private const int HeaderProbeBytes = 64 * 1024;
    private const int HeaderChecksInParallel = 8;

    // What a compressed part fetches to find its header: a small first block, not a whole read-ahead block per part.
    private const int CompressedProbeBytes = 64 * 1024;

    /// <param name="input">The <c>Loader:Input</c> setting.</param>
    /// <param name="compression">The <c>Loader:Csv:Compression</c> setting.</param>
    /// <param name="cancellationToken">Cancels finding and checking the input.</param>
    public async Task<InputSource> OpenAsync(string input, InputCompression compression, CancellationToken cancellationToken)
    {
        if (!BlobClientFactory.IsUrl(input))
        {
            var file = OpenFile(input, compression);
            LogCompressed(file);
            return file;
        }

        if (!BlobAddress.TryParse(input, out var address, out var error))
        {
            throw new InputNotFoundException($"Loader:Input: {error}");
        }

        try
        {
            var container = blobs.For(address);
            var parts = address.IsPrefix
                ? await ListAsync(container, address, compression, cancellationToken).ConfigureAwait(false)
                : [await OneAsync(container, address, compression, cancellationToken).ConfigureAwait(false)];
            var source = new InputSource(address.Display, parts);
            await CheckHeadersAsync(source, cancellationToken).ConfigureAwait(false);
            LogFound(parts.Count, address.Display, source.Length);
            LogCompressed(source);
            return source;
        }
        catch (InvalidOperationException exception)
        {
            throw new InputNotFoundException($"Loader:Input: {exception.Message}", exception);
        }
        catch (Exception exception) when (exception is RequestFailedException or Azure.Identity.AuthenticationFailedException)
        {
            throw new InputUnavailableException($"Loader:Input: cannot read '{address.Display}': {BackendErrors.Describe(exception)}", exception);
        }
    }

    private static InputSource OpenFile(string path, InputCompression compression)
    {
        try
        {
            return new InputSource(path, [new LocalFilePart(path, new FileInfo(path).Length) { Compression = CompressionChoice.For(compression, path) }]);
        }
        catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException)
        {
            // Said here, not by the options' validation: whether a file is there is the file system's answer at open.
            throw new InputNotFoundException($"Loader:Input '{path}' does not exist.", exception);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new InputUnavailableException($"Loader:Input: cannot open '{path}': {exception.Message}", exception);
        }
    }

    private static async Task<BlobPart> OneAsync(BlobContainerClient container, BlobAddress address, InputCompression compression, CancellationToken cancellationToken)
    {
        var client = container.GetBlobClient(address.Path);
        Azure.Storage.Blobs.Models.BlobProperties properties;
        try
        {
            properties = (await client.GetPropertiesAsync(cancellationToken: cancellationToken).ConfigureAwait(false)).Value;
        }
        catch (RequestFailedException exception) when (exception.Status == 404)
        {
            throw new InputNotFoundException($"Loader:Input: blob '{address.Display}' does not exist.", exception);
        }
        catch (RequestFailedException exception)
        {
            throw BlobErrors.Failure(exception, $"reading the properties of blob '{address.Display}'");
        }

        return new BlobPart(client, InputBlob.Of(address.Path, properties.ContentLength, properties.ETag))
        {
            Compression = CompressionChoice.For(compression, address.Path, properties.ContentEncoding),
        };
    }

    private async Task<List<InputPart>> ListAsync(BlobContainerClient container, BlobAddress address, InputCompression compression, CancellationToken cancellationToken)
    {
        var parts = new List<InputPart>();
        try
        {
            await foreach (var blob in container.GetBlobsAsync(new Azure.Storage.Blobs.Models.GetBlobsOptions { Prefix = address.Prefix }, cancellationToken).ConfigureAwait(false))
            {
                var length = blob.Properties.ContentLength ?? 0;
                if (length == 0)
                {
                    LogEmptySkipped(blob.Name); // folder markers some tools leave, and empty files: no header to read
                    continue;
                }

                parts.Add(new BlobPart(container.GetBlobClient(blob.Name), InputBlob.Of(blob.Name, length, blob.Properties.ETag ?? default))
                {
                    Compression = CompressionChoice.For(compression, blob.Name, blob.Properties.ContentEncoding),
                });
            }
        }
        catch (RequestFailedException exception)
        {
            throw BlobErrors.Failure(exception, $"listing container '{address.Container}'");
        }

        parts.Sort((left, right) => string.CompareOrdinal(left.Name, right.Name));
        return parts.Count > 0
            ? parts
            : throw new InputNotFoundException($"Loader:Input: no blobs (with content) under '{address.Display}'.");
    }

    /// <summary>Each part's first line must be the first part's: they are read as one CSV under one header.</summary>
    private static async Task CheckHeadersAsync(InputSource source, CancellationToken cancellationToken)
    {
        if (source.Parts.Count < 2)
        {
            return;
        }

        try
        {
            await CompareHeadersAsync(source, cancellationToken).ConfigureAwait(false);
        }
        catch (DamagedInputException exception)
        {
            throw new DamagedInputException(exception.Part, exception.Offset, $"Loader:Input: {exception.Message}", exception);
        }
    }

    private static async Task CompareHeadersAsync(InputSource source, CancellationToken cancellationToken)
    {
        var first = source.Parts[0];
        var expected = await FirstLineAsync(first, cancellationToken).ConfigureAwait(false);
        var problems = new System.Collections.Concurrent.ConcurrentBag<(int Index, string Problem)>();
        await Parallel.ForEachAsync(
            source.Parts.Skip(1).Select((part, index) => (part, index)),
            new ParallelOptions { MaxDegreeOfParallelism = HeaderChecksInParallel, CancellationToken = cancellationToken },
            async (item, token) =>
            {
                var header = await FirstLineAsync(item.part, token).ConfigureAwait(false);
                if (!header.AsSpan().SequenceEqual(expected))
                {
                    problems.Add((item.index, $"'{item.part.Name}' starts with '{Shorten(header)}', not the header of '{first.Name}', '{Shorten(expected)}'"));
                }
            }).ConfigureAwait(false);

        if (!problems.IsEmpty)
        {
            var ordered = problems.OrderBy(problem => problem.Index).Select(problem => problem.Problem).ToList();
            throw new InputMismatchException(
                $"Loader:Input: the files under one prefix are loaded as one CSV and need the same header row: {string.Join("; ", ordered.Take(3))}{(ordered.Count > 3 ? $"; and {ordered.Count - 3} more" : "")}.");
        }
    }

    private static async Task<byte[]> FirstLineAsync(InputPart part, CancellationToken cancellationToken)
    {
        // A compressed part's text is longer than its size says.
        var buffer = new byte[part.Compression == InputCompression.None ? (int)Math.Min(HeaderProbeBytes, part.Length) : HeaderProbeBytes];
        int read;
        await using (var stream = part.Open(part.Compression == InputCompression.None ? buffer.Length : CompressedProbeBytes))
        {
            read = await stream.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: false, cancellationToken).ConfigureAwait(false);
        }

        var line = buffer.AsSpan(0, read);
        var end = line.IndexOf((byte)'\n');
        line = end < 0 ? line : line[..end];
        line = line.StartsWith("\uFEFF"u8) ? line[3..] : line;
        return (line.EndsWith("\r"u8) ? line[..^1] : line).ToArray();
    }

    private static string Shorten(byte[] header)
    {
        var text = System.Text.Encoding.UTF8.GetString(header);
        return text.Length <= 80 ? text : text[..77] + "...";
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Input: {Parts} blob(s) at {Input}, {Bytes:N0} bytes, read as one CSV in name order")]
    private partial void LogFound(int parts, string input, long bytes);

    private void LogCompressed(InputSource source)
    {
        foreach (var part in source.CompressedParts)
        {
            LogDecompressing(part.Name, part.Compression, part.Length);
        }
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Input: {Name} is {Compression}-compressed ({Bytes:N0} bytes), decompressed as it is read; progress counts its compressed bytes")]
    private partial void LogDecompressing(string name, InputCompression compression, long bytes);

    [LoggerMessage(Level = LogLevel.Information, Message = "Input: skipped empty blob {Name}")]
    private partial void LogEmptySkipped(string name);
}
