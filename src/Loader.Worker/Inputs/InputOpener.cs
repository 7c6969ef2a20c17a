using Azure;
using Loader.Worker.Backends;
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

    /// <summary>What <c>Loader:Input</c> is when it names standard input.</summary>
    public const string StandardInput = "-";

    // Inputs read once (standard input, named pipes) this process has opened: opening one again would read nothing, or wait for a new writer.
    private readonly HashSet<string> _readOnce = new(StringComparer.Ordinal);

    /// <param name="input">The <c>Loader:Input</c> setting.</param>
    /// <param name="compression">The <c>Loader:Csv:Compression</c> setting.</param>
    /// <param name="cancellationToken">Cancels finding and checking the input.</param>
    /// <param name="format">The <c>Loader:Format</c> setting.</param>
    /// <exception cref="InputNotFoundException">Nothing is where the setting points.</exception>
    /// <exception cref="InputUnavailableException">It is there but cannot be opened: permission, credential, no answer.</exception>
    /// <exception cref="InputRefusedException">It is nothing the loader reads: a folder, an address no client can be made for.</exception>
    /// <exception cref="InputMismatchException">The parts of a several-part input differ in format, or (CSV) start with different headers.</exception>
    /// <exception cref="DamagedInputException">A compressed part is damaged before its header ends.</exception>
    public async Task<InputSource> OpenAsync(string input, InputCompression compression, CancellationToken cancellationToken, InputFormat format = InputFormat.Auto)
    {
        if (!BlobClientFactory.IsUrl(input))
        {
            var file = OpenFile(input, compression, format);
            LogCompressed(file);
            return file;
        }

        if (!BlobAddress.TryParse(input, out var address, out var error))
        {
            throw new InputRefusedException($"Loader:Input: {error}");
        }

        try
        {
            var parts = address.IsPrefix
                ? await ListAsync(address, compression, format, cancellationToken).ConfigureAwait(false)
                : [await OneAsync(address, compression, format, cancellationToken).ConfigureAwait(false)];
            CheckFormats(parts);
            var source = new InputSource(address.Display, parts);
            await CheckHeadersAsync(source, cancellationToken).ConfigureAwait(false);
            LogFound(parts.Count, address.Display, source.Length);
            LogCompressed(source);
            return source;
        }
        catch (InvalidOperationException exception)
        {
            throw new InputRefusedException($"Loader:Input: {exception.Message}", exception);
        }
        catch (Exception exception) when (exception is RequestFailedException or Azure.Identity.AuthenticationFailedException)
        {
            throw new InputUnavailableException($"Loader:Input: cannot read '{address.Display}': {BackendErrors.Describe(exception)}", exception);
        }
        catch (AggregateException exception) when (exception.InnerExceptions.All(inner => inner is RequestFailedException or HttpRequestException))
        {
            // The storage client's own tries all went unanswered.
            throw new InputUnavailableException(
                $"Loader:Input: cannot reach '{address.Display}': no answer from {address.AccountEndpoint} after {exception.InnerExceptions.Count} tries ({exception.InnerExceptions[^1].GetBaseException().Message}).",
                exception);
        }
    }

    private InputSource OpenFile(string path, InputCompression compression, InputFormat format)
    {
        lock (_readOnce)
        {
            if (_readOnce.Contains(path))
            {
                throw new InputRefusedException(
                    $"Loader:Input '{path}' can be read only once, and this run reads it again (--estimate reads its input twice): write it to a file and load that.");
            }
        }

        if (path == StandardInput)
        {
            return RememberReadOnce(path, new InputSource("standard input", [new OnceReadPart("standard input", "standard input", Console.OpenStandardInput()) { Compression = CompressionChoice.For(compression, ""), Format = FormatChoice.For(format, "") }]));
        }

        if (Directory.Exists(path))
        {
            throw new InputRefusedException(
                $"Loader:Input '{path}' is a folder. The loader reads one file, or every blob under a blob prefix (a URL ending in '/', read as one CSV in name order, each blob starting with the same header): name one file of the folder, or upload its files under one prefix and give that URL.");
        }

        // Opened here, so that a file the loader may not read is said at start; a named pipe opens when its writer does.
        FileStream stream;
        try
        {
            stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);
        }
        catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException)
        {
            // Said here, not by the options' validation: whether a file is there is the file system's answer at open.
            throw new InputNotFoundException($"Loader:Input '{path}' does not exist.", exception);
        }
        catch (UnauthorizedAccessException exception)
        {
            throw new InputUnavailableException($"Loader:Input '{path}' cannot be read: permission denied (the loader runs as user '{Environment.UserName}').", exception);
        }
        catch (IOException exception)
        {
            throw new InputUnavailableException($"Loader:Input '{path}' cannot be opened: {exception.Message}", exception);
        }

        if (!stream.CanSeek)
        {
            return RememberReadOnce(path, new InputSource(path, [new OnceReadPart(Path.GetFileName(path), "a named pipe", stream) { Compression = CompressionChoice.For(compression, path), Format = FormatChoice.For(format, path) }]));
        }

        using (stream)
        {
            return new InputSource(path, [new LocalFilePart(path, stream.Length) { Compression = CompressionChoice.For(compression, path), Format = FormatChoice.For(format, path), Modified = File.GetLastWriteTimeUtc(path) }]);
        }
    }

    private InputSource RememberReadOnce(string setting, InputSource source)
    {
        lock (_readOnce)
        {
            _readOnce.Add(setting);
        }

        LogReadOnce(source.Display);
        return source;
    }

    private async Task<BlobPart> OneAsync(BlobAddress address, InputCompression compression, InputFormat format, CancellationToken cancellationToken)
    {
        Azure.Storage.Blobs.Models.BlobProperties properties;
        try
        {
            properties = (await blobs.ForLookup(address).GetBlobClient(address.Path).GetPropertiesAsync(cancellationToken: cancellationToken).ConfigureAwait(false)).Value;
        }
        catch (RequestFailedException exception) when (exception.Status == 404)
        {
            throw new InputNotFoundException($"Loader:Input: blob '{address.Display}' does not exist.", exception);
        }
        catch (RequestFailedException exception)
        {
            throw BlobErrors.Failure(exception, $"reading the properties of blob '{address.Display}'");
        }

        return new BlobPart(blobs.For(address).GetBlobClient(address.Path), InputBlob.Of(address.Path, properties.ContentLength, properties.ETag))
        {
            Compression = CompressionChoice.For(compression, address.Path, properties.ContentEncoding),
            Format = FormatChoice.For(format, address.Path),
        };
    }

    private async Task<List<InputPart>> ListAsync(BlobAddress address, InputCompression compression, InputFormat format, CancellationToken cancellationToken)
    {
        var parts = new List<InputPart>();
        var container = blobs.For(address);
        try
        {
            await foreach (var blob in blobs.ForLookup(address).GetBlobsAsync(new Azure.Storage.Blobs.Models.GetBlobsOptions { Prefix = address.Prefix }, cancellationToken).ConfigureAwait(false))
            {
                var length = blob.Properties.ContentLength ?? 0;
                if (length == 0)
                {
                    LogEmptySkipped(blob.Name); // folder markers some tools leave, and empty files: no header to read
                    continue;
                }

                if (IsHidden(blob.Name[address.Prefix.Length..]))
                {
                    LogHiddenSkipped(blob.Name);
                    continue;
                }

                parts.Add(new BlobPart(container.GetBlobClient(blob.Name), InputBlob.Of(blob.Name, length, blob.Properties.ETag ?? default))
                {
                    Compression = CompressionChoice.For(compression, blob.Name, blob.Properties.ContentEncoding),
                    Format = FormatChoice.For(format, blob.Name),
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

    /// <summary>
    /// Whether a blob under the prefix is one that data tools leave beside their output and read past: a name, or a folder
    /// on its way, starting with '_' or '.' (Spark's _SUCCESS, Databricks' _committed_ and _started_ markers, a Delta
    /// table's _delta_log, checksum files), as Spark, Hive and Arrow datasets skip them.
    /// </summary>
    internal static bool IsHidden(string pathUnderPrefix) =>
        pathUnderPrefix.Split('/').Any(segment => segment.StartsWith('_') || segment.StartsWith('.'));

    /// <summary>The parts of one input are read as one format: a prefix may mix compressions, but not formats.</summary>
    private static void CheckFormats(List<InputPart> parts)
    {
        if (parts.Skip(1).FirstOrDefault(part => part.Format != parts[0].Format) is { } odd)
        {
            throw new InputMismatchException(
                $"Loader:Input: the files under one prefix are read as one input of one format: '{parts[0].Name}' is {FormatChoice.Describe(parts[0].Format)} and '{odd.Name}' is {FormatChoice.Describe(odd.Format)}. "
                + "Load each format from a prefix of its own, or set Loader:Format to read every file as one format.");
        }
    }

    /// <summary>Each part's first line must be the first part's: they are read as one CSV under one header.</summary>
    private static async Task CheckHeadersAsync(InputSource source, CancellationToken cancellationToken)
    {
        if (source.Parts.Count < 2 || source.Format != InputFormat.Csv)
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
        catch (IOException exception) when (exception is not InputFormatException)
        {
            throw new InputUnavailableException($"Loader:Input: {exception.Message}", exception);
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

    [LoggerMessage(Level = LogLevel.Information, Message = "Input: {Input} is read once, as it comes: its size is unknown until it ends, and it cannot be read again")]
    private partial void LogReadOnce(string input);

    [LoggerMessage(Level = LogLevel.Information, Message = "Input: skipped empty blob {Name}")]
    private partial void LogEmptySkipped(string name);

    [LoggerMessage(Level = LogLevel.Information, Message = "Input: skipped {Name}, a name starting with '_' or '.' that data tools leave beside their output")]
    private partial void LogHiddenSkipped(string name);
}
