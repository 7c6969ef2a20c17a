using System.Text;
using System.Text.RegularExpressions;

namespace Loader.Worker.Security;

/// <summary>
/// The one rule for what the loader writes (logs, summaries, reports, estimates, checkpoints, a sharded load's state):
/// <list type="bullet">
/// <item>in any URL (any scheme: <c>https</c>, <c>amqps</c>, <c>sb</c>...), the user name and password before the host are
/// removed, and every query parameter keeps its name and loses its value: <c>?sv=(removed)&amp;sig=(removed)</c>;</item>
/// <item>in <c>Name=Value</c> pairs (connection strings), the value of a name ending in <c>Key</c>, <c>Secret</c>,
/// <c>Token</c>, <c>Password</c>, <c>Pwd</c>, <c>Signature</c> or <c>Sig</c> (AccountKey, SharedAccessSignature,
/// SharedAccessKey, InstrumentationKey, ...) is removed; <c>PartitionKey</c> and <c>RowKey</c> are the data's keys, not secrets;</item>
/// <item>the exact values it was given (the secret settings of a load, see <c>Configuration/SecretSettings</c>) are removed
/// wherever they appear, so a key an SDK quotes alone is caught too.</item>
/// </list>
/// Applied where text leaves the loader, not where messages are made, so a new message cannot get past it.
/// </summary>
internal sealed partial class Redaction
{
    /// <summary>What a removed value is shown as.</summary>
    public const string Removed = "(removed)";

    /// <summary>Exact values shorter than this are not searched for alone: they would match ordinary words. In a URL or a connection string they are removed by their place.</summary>
    public const int ShortestKnownSecret = 6;

    /// <summary>The rule alone, with no values known: what is left when no settings could be read.</summary>
    public static Redaction Rule { get; } = new([]);

    private readonly string[] _known;

    /// <param name="secrets">Exact values to remove wherever they appear; each is also searched for URL-encoded.</param>
    public Redaction(IEnumerable<string> secrets)
    {
        _known = [.. secrets
            .Where(secret => !string.IsNullOrWhiteSpace(secret) && secret.Trim().Length >= ShortestKnownSecret)
            .SelectMany(secret => new[] { secret, Uri.EscapeDataString(secret) })
            .Where(secret => secret != Removed)
            .Distinct(StringComparer.Ordinal)
            .OrderByDescending(secret => secret.Length)]; // longest first: a key inside a connection string goes with the string
    }

    /// <summary>The text with every secret the rule finds replaced by <see cref="Removed"/>; the same instance when there is none.</summary>
    public string Redact(string text)
    {
        if (string.IsNullOrEmpty(text))
        {
            return text;
        }

        var redacted = text;
        foreach (var secret in _known)
        {
            if (redacted.Contains(secret, StringComparison.Ordinal))
            {
                redacted = redacted.Replace(secret, Removed, StringComparison.Ordinal);
            }
        }

        if (redacted.Contains("://", StringComparison.Ordinal) || redacted.Contains('=', StringComparison.Ordinal))
        {
            // One pass: a URL is matched whole first, so a pair in its path (a folder named customer_key=5) is its path.
            redacted = UrlOrSecretPair().Replace(redacted, static match => match.Groups["scheme"].Success
                ? WithoutSecrets(match)
                : $"{match.Groups["name"].Value}{match.Groups["equals"].Value}{Removed}");
        }

        return redacted == text ? text : redacted;
    }

    /// <summary>
    /// The secrets the rule would remove from <paramref name="value"/> (a setting): the user information of a URL and its
    /// password, the values of its query parameters named as secrets (<c>sig</c>, <c>token</c>...), and the values of
    /// secret names in <c>Name=Value</c> pairs, each as written and URL-decoded. A host searches for these alone too.
    /// </summary>
    public static IEnumerable<string> SecretsIn(string? value)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            yield break;
        }

        foreach (Match url in Url().Matches(value))
        {
            if (url.Groups["userinfo"] is { Success: true } userInfo)
            {
                var text = userInfo.Value.TrimEnd('@');
                yield return text;
                var colon = text.IndexOf(':', StringComparison.Ordinal);
                if (colon >= 0)
                {
                    yield return text[(colon + 1)..];
                    yield return Uri.UnescapeDataString(text[(colon + 1)..]);
                }
            }

            if (url.Groups["query"] is { Success: true } query)
            {
                foreach (var secret in SecretParameters(query.Value))
                {
                    yield return secret;
                }
            }
        }

        foreach (Match pair in SecretPair().Matches(value))
        {
            var secret = pair.Groups["value"].Value;
            yield return secret;
            yield return Uri.UnescapeDataString(secret);
            foreach (var inner in SecretParameters(secret)) // a SharedAccessSignature's own sig=
            {
                yield return inner;
            }
        }
    }

    /// <summary>The values of the parameters with secret names in a query string (<c>sv=...&amp;sig=...</c>), as written and decoded.</summary>
    private static IEnumerable<string> SecretParameters(string query)
    {
        foreach (var parameter in query.Split('&', StringSplitOptions.RemoveEmptyEntries))
        {
            var equals = parameter.IndexOf('=', StringComparison.Ordinal);
            if (equals > 0 && SecretName().IsMatch(parameter[..equals]))
            {
                yield return parameter[(equals + 1)..];
                yield return Uri.UnescapeDataString(parameter[(equals + 1)..]);
            }
        }
    }

    private static string WithoutSecrets(Match url)
    {
        var userInfo = url.Groups["userinfo"];
        var query = url.Groups["query"];
        if (!userInfo.Success && !query.Success)
        {
            return url.Value;
        }

        var text = new StringBuilder(url.Groups["scheme"].Value);
        if (userInfo.Success)
        {
            text.Append(Removed).Append('@');
        }

        text.Append(url.Groups["rest"].Value);
        if (query.Success)
        {
            text.Append('?');
            var parameters = query.Value.Split('&');
            for (var i = 0; i < parameters.Length; i++)
            {
                var parameter = parameters[i];
                var equals = parameter.IndexOf('=', StringComparison.Ordinal);
                text.Append(i > 0 ? "&" : "").Append(
                    parameter.Length == 0 ? ""
                    : equals < 0 ? Removed // a bare value (?token) may be the secret itself
                    : parameter.Length == equals + 1 ? parameter
                    : parameter[..(equals + 1)] + Removed);
            }
        }

        return text.ToString();
    }

    /// <summary>
    /// A URL of any scheme: its user information (up to the last @ before the path), the rest up to the query, and the
    /// query up to a fragment; each ends at a connection string's <c>;</c>, white space, a quote or an angle bracket.
    /// </summary>
    private const string UrlPattern =
        """(?<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)(?<userinfo>[^/?#;\s"'<>`]*@)?(?<rest>[^?#;\s"'<>`]*)(?:\?(?<query>[^#;\s"'<>`]*))?""";

    /// <summary>
    /// <c>Name=Value</c> where the name ends as a secret's does (case ignored); the value runs to a <c>;</c>, white space or
    /// a quote (a SharedAccessSignature's <c>&amp;</c>-joined parameters with it). A value already removed is left as it is.
    /// </summary>
    private const string SecretPairPattern =
        """(?i:(?<![A-Za-z0-9_\-])(?!(?:partition|row)key\b)(?<name>(?:[A-Za-z][A-Za-z0-9_\-]*?)?(?:key|secret|token|password|pwd|signature|sig))(?<equals>[ \t]*=[ \t]*)(?!\(removed\))(?<value>[^;\s"'<>`]+))""";

    [GeneratedRegex(UrlPattern, RegexOptions.CultureInvariant)]
    private static partial Regex Url();

    [GeneratedRegex(SecretPairPattern, RegexOptions.CultureInvariant)]
    private static partial Regex SecretPair();

    [GeneratedRegex(UrlPattern + "|" + SecretPairPattern, RegexOptions.CultureInvariant)]
    private static partial Regex UrlOrSecretPair();

    [GeneratedRegex("""^[A-Za-z0-9_\-]*(?:key|secret|token|password|pwd|signature|sig)$""", RegexOptions.CultureInvariant | RegexOptions.IgnoreCase)]
    private static partial Regex SecretName();
}
