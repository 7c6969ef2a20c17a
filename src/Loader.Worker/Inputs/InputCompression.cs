namespace Loader.Worker.Inputs;

/// <summary>
/// How the input's bytes are compressed (<c>Loader:Csv:Compression</c>). <see cref="Auto"/> decides per file: a blob's
/// <c>Content-Encoding</c>, else the name's extension. Any other value applies to every file of the input.
/// </summary>
internal enum InputCompression
{
    /// <summary>Plain CSV, whatever the names or encodings say.</summary>
    None,

    /// <summary>Per file: a blob's Content-Encoding, else the extension (.gz, .br, .zz, .deflate, .zst); plain otherwise.</summary>
    Auto,

    /// <summary>gzip (RFC 1952), one member or several concatenated.</summary>
    Gzip,

    /// <summary>Brotli (RFC 7932).</summary>
    Brotli,

    /// <summary>zlib (RFC 1950) or raw deflate (RFC 1951), told apart by the zlib header.</summary>
    Deflate,

    /// <summary>Zstandard (RFC 8878), one frame or several.</summary>
    Zstd,
}
