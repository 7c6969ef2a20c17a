using System.Diagnostics.CodeAnalysis;
using System.Text.RegularExpressions;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Storage.Queues;

/// <summary>
/// An Azure Storage queue named by URL: host-style <c>https://acme.queue.core.windows.net/loader-shards</c>, or
/// path-style for the emulator, <c>http://127.0.0.1:10001/devstoreaccount1/loader-shards</c> (the rule of
/// <see cref="BlobAddress.IsPathStyle"/>). A query string must be a shared access signature: kept in
/// <see cref="SharedAccessSignature"/>, never shown.
/// </summary>
internal sealed partial record QueueAddress(Uri AccountEndpoint, string Name)
{
    /// <summary>What a poison queue's name adds to its queue's.</summary>
    public const string PoisonSuffix = "-poison";

    private const string Forms =
        "expected https://<account>.queue.core.windows.net/<queue> or, for the emulator, http://127.0.0.1:10001/<account>/<queue>";

    public string? SharedAccessSignature { get; init; }

    /// <summary>The URL without its signature, for logs and reports.</summary>
    public string Display => $"{AccountEndpoint.AbsoluteUri.TrimEnd('/')}/{Name}";

    /// <summary>The queue shards that keep failing move to: this one's name with <see cref="PoisonSuffix"/>, same account and signature.</summary>
    public QueueAddress Poison => this with { Name = Name + PoisonSuffix };

    public override string ToString() => Display;

    public static bool TryParse(string text, [NotNullWhen(true)] out QueueAddress? address, [NotNullWhen(false)] out string? error)
    {
        address = null;
        var query = text.IndexOf('?', StringComparison.Ordinal);
        var withoutQuery = (query < 0 ? text : text[..query]).Trim();
        var sas = query < 0 ? null : text[(query + 1)..].Trim();
        if (!Uri.TryCreate(withoutQuery, UriKind.Absolute, out var uri) || (uri.Scheme != Uri.UriSchemeHttps && uri.Scheme != Uri.UriSchemeHttp))
        {
            error = $"'{withoutQuery}' is not an http(s) URL: {Forms}.";
            return false;
        }

        if (uri.UserInfo.Length > 0)
        {
            error = $"the URL of host {uri.Host} carries a user name or password; give a shared access signature or sign in another way.";
            return false;
        }

        var pathStyle = BlobAddress.IsPathStyle(uri);
        if (!pathStyle && !uri.Host.Split('.').Skip(1).Contains("queue", StringComparer.OrdinalIgnoreCase))
        {
            error = $"the host of '{withoutQuery}' is not a Queue service endpoint: {Forms}.";
            return false;
        }

        var segments = uri.AbsolutePath.Trim('/').Split('/', StringSplitOptions.RemoveEmptyEntries);
        if (segments.Length != (pathStyle ? 2 : 1))
        {
            error = $"'{withoutQuery}' does not name one queue: {Forms}.";
            return false;
        }

        var name = segments[^1];
        // The poison queue's name must be valid too: 3 to 63 characters in all.
        if (!QueueName().IsMatch(name) || name.Length + PoisonSuffix.Length > 63)
        {
            error = $"'{name}' in '{withoutQuery}' is not a queue name this loader can use: 3 to {63 - PoisonSuffix.Length} lower-case letters, digits and single hyphens, starting with a letter or digit (its poison queue adds '{PoisonSuffix}').";
            return false;
        }

        var authority = uri.GetLeftPart(UriPartial.Authority);
        address = new QueueAddress(new Uri(pathStyle ? $"{authority}/{segments[0]}" : authority), name)
        {
            SharedAccessSignature = sas is null or "" ? null : sas,
        };
        error = null;
        return true;
    }

    [GeneratedRegex("^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$", RegexOptions.CultureInvariant)]
    private static partial Regex QueueName();
}
