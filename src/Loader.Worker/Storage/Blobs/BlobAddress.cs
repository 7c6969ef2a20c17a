using System.Diagnostics.CodeAnalysis;
using System.Text.RegularExpressions;

namespace Loader.Worker.Storage.Blobs;

/// <summary>
/// A blob, or a prefix of blobs, named by URL. Two forms are understood:
/// <list type="bullet">
/// <item>host-style, <c>https://acme.blob.core.windows.net/container/path</c>: a host with a label <c>blob</c>
/// after the account's (any cloud's suffix, private endpoints, <c>acme.z5.blob.storage.azure.net</c>);</item>
/// <item>path-style, <c>http://127.0.0.1:10000/devstoreaccount1/container/path</c>: the account is the first
/// segment when the host is an IP address, <c>localhost</c> or a name without a dot (the compose service
/// <c>azurite</c>), the rule of <see cref="IsPathStyle"/>.</item>
/// </list>
/// Custom domains are not understood: nothing in their host says where the account ends.
/// A path that is empty or ends with <c>/</c> or <c>*</c> is a prefix; a <c>*</c> anywhere else is refused as a
/// pattern nobody supports (<c>%2A</c> is a literal star there). <see cref="Path"/> is decoded. A query string must be a shared access signature; it is kept
/// in <see cref="SharedAccessSignature"/> and left out of <see cref="Display"/> and <see cref="ToString"/>.
/// </summary>
internal sealed partial record BlobAddress(Uri AccountEndpoint, string Container, string Path)
{
    private const string Forms =
        "expected https://<account>.blob.core.windows.net/<container>/<path> or, for the emulator, http://127.0.0.1:10000/<account>/<container>/<path>";

    /// <summary>The query string of the URL, without its <c>?</c>; never shown.</summary>
    public string? SharedAccessSignature { get; init; }

    /// <summary>
    /// Whether the address names every blob whose name starts with <see cref="Prefix"/> rather than one blob:
    /// the path is empty or ends with <c>/</c> or <c>*</c>.
    /// </summary>
    public bool IsPrefix => Path.Length == 0 || Path.EndsWith('/') || Path.EndsWith('*');

    /// <summary>The path without a trailing <c>*</c>: what List Blobs filters on.</summary>
    public string Prefix => Path.EndsWith('*') ? Path[..^1] : Path;

    /// <summary>The URL without its signature, for logs and reports.</summary>
    public string Display =>
        $"{AccountEndpoint.GetLeftPart(UriPartial.Authority)}{AccountEndpoint.AbsolutePath.TrimEnd('/')}/{Container}/"
        + BlobPathEncoding.Escape(Prefix) + (Path.EndsWith('*') ? "*" : "");

    public override string ToString() => Display;

    /// <summary>Parses a blob URL; on failure <paramref name="error"/> says what is wrong, never quoting the query string.</summary>
    public static bool TryParse(string text, [NotNullWhen(true)] out BlobAddress? address, [NotNullWhen(false)] out string? error)
    {
        address = null;
        var query = text.IndexOf('?', StringComparison.Ordinal);
        var withoutQuery = (query < 0 ? text : text[..query]).Trim();
        var sas = query < 0 ? null : text[(query + 1)..].Trim();
        error = Problem(withoutQuery, sas, out var checkedUri);
        if (error is not null)
        {
            return false;
        }

        var uri = checkedUri!;
        // The raw text, not Uri.AbsolutePath: Uri would turn '\' into '/' and fold '.' and '..' segments.
        var afterScheme = withoutQuery[(withoutQuery.IndexOf("//", StringComparison.Ordinal) + 2)..];
        var slash = afterScheme.IndexOf('/', StringComparison.Ordinal);
        var pathStyle = IsPathStyle(uri);
        var segments = (slash < 0 ? "" : afterScheme[(slash + 1)..]).Split('/', pathStyle ? 3 : 2);
        string Segment(int index) => index < segments.Length ? segments[index] : "";

        var account = pathStyle ? Segment(0) : null;
        var container = Segment(pathStyle ? 1 : 0);
        var escapedPath = Segment(pathStyle ? 2 : 1);
        error = (account is "" ? $"'{withoutQuery}' names no account: {Forms}." : null)
            ?? CheckContainer(withoutQuery, container)
            ?? CheckStar(withoutQuery, escapedPath);
        if (error is not null)
        {
            return false;
        }

        if (!BlobPathEncoding.TryDecode(escapedPath, out var path, out var decodeError))
        {
            error = $"'{withoutQuery}': {decodeError}.";
            return false;
        }

        if (BlobPathEncoding.HasDotSegment(path))
        {
            error = $"the path of '{withoutQuery}' has a '.' or '..' segment; blob names cannot be reached through such URLs.";
            return false;
        }

        var authority = uri.GetLeftPart(UriPartial.Authority);
        var accountEndpoint = new Uri(account is null ? authority : $"{authority}/{account}");
        address = new BlobAddress(accountEndpoint, container, path) { SharedAccessSignature = sas is "" ? null : sas };
        return true;
    }

    /// <summary>What is wrong with the URL as a whole, or null with <paramref name="uri"/> set.</summary>
    private static string? Problem(string withoutQuery, string? sas, out Uri? uri)
    {
        if (!Uri.TryCreate(withoutQuery, UriKind.Absolute, out uri) || (uri.Scheme != Uri.UriSchemeHttps && uri.Scheme != Uri.UriSchemeHttp))
        {
            return $"'{withoutQuery}' is not an http(s) URL: {Forms}.";
        }

        // First, so that no later message quotes the password.
        if (uri.UserInfo.Length > 0)
        {
            return "the URL has a user name or password before its host; a blob URL carries a shared access signature in its query string instead.";
        }

        if (uri.Fragment.Length > 0)
        {
            return $"'{withoutQuery}' has a fragment (#); write %23 for a # in a blob's name.";
        }

        if (sas is not null && !sas.Contains("sig=", StringComparison.OrdinalIgnoreCase))
        {
            return $"the query string of '{withoutQuery}' is not a shared access signature (it has no sig=).";
        }

        if (!IsPathStyle(uri) && !uri.Host.Split('.').Skip(1).Contains("blob", StringComparer.OrdinalIgnoreCase))
        {
            return $"the host of '{withoutQuery}' is not a Blob service endpoint: {Forms}.";
        }

        return null;
    }

    private static string? CheckContainer(string withoutQuery, string container)
    {
        if (container.Length == 0)
        {
            return $"'{withoutQuery}' names no container: {Forms}.";
        }

        return ContainerName().IsMatch(container) || container is "$root" or "$logs" or "$web"
            ? null
            : $"'{container}' in '{withoutQuery}' is not a container name: 3 to 63 lower-case letters, digits and single hyphens, starting with a letter or digit.";
    }

    private static string? CheckStar(string withoutQuery, string escapedPath)
    {
        var star = escapedPath.IndexOf('*', StringComparison.Ordinal);
        return star < 0 || star == escapedPath.Length - 1
            ? null
            : $"'{withoutQuery}' has a '*' before the end of its path; only a trailing * (a prefix) is understood, write %2A for a literal *.";
    }

    /// <summary>
    /// True for an emulator-style endpoint whose first path segment is the account: the host is an IP address,
    /// <c>localhost</c>, or a name without a dot (a compose service such as <c>azurite</c>). A real account's
    /// host always has dots (<c>acme.blob.core.windows.net</c>), so nothing real is mistaken for the emulator.
    /// </summary>
    public static bool IsPathStyle(Uri endpoint) =>
        endpoint.IsLoopback
        || endpoint.HostNameType is UriHostNameType.IPv4 or UriHostNameType.IPv6
        || !endpoint.Host.Contains('.', StringComparison.Ordinal);

    [GeneratedRegex("^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$", RegexOptions.CultureInvariant)]
    private static partial Regex ContainerName();
}
