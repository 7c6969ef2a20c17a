namespace Loader.Worker.Backends.Tables;

/// <summary>
/// The shared access signature each transaction carries on its URL. Either one the settings gave (it is the user's to
/// renew), or one signed here from the account key through the SDK's own SAS builder: then a request is signed once per
/// signature's lifetime instead of by an HMAC of its own, and a fresh signature is made well before the old one expires.
/// </summary>
internal sealed class TableSignature
{
    /// <summary>How long a signature made from the key is valid.</summary>
    public static readonly TimeSpan Lifetime = TimeSpan.FromHours(1);

    /// <summary>How long before its expiry a signature made from the key is replaced: past any request's time limit and clock skew.</summary>
    public static readonly TimeSpan RenewBefore = TimeSpan.FromMinutes(20);

    private readonly Func<DateTimeOffset, string>? _sign;
    private readonly TimeProvider _timeProvider;
    private volatile Signed _current;

    private TableSignature(Func<DateTimeOffset, string>? sign, string given, TimeProvider timeProvider)
    {
        _sign = sign;
        _timeProvider = timeProvider;
        _current = new Signed(given, DateTimeOffset.MaxValue);
    }

    /// <summary>A signature the settings gave, used as it is.</summary>
    public static TableSignature Given(string query) => new(null, query.TrimStart('?'), TimeProvider.System);

    /// <summary>Signatures made by <paramref name="sign"/> (given the expiry, it returns the query string), renewed before they expire.</summary>
    public static TableSignature FromKey(Func<DateTimeOffset, string> sign, TimeProvider timeProvider)
    {
        var signature = new TableSignature(sign, "", timeProvider);
        signature.Renew(timeProvider.GetUtcNow());
        return signature;
    }

    /// <summary>The query string to put on a request now (without the leading '?').</summary>
    public string Current
    {
        get
        {
            var current = _current;
            if (_sign is not null)
            {
                var now = _timeProvider.GetUtcNow();
                if (now >= current.ExpiresOn - RenewBefore)
                {
                    // Two requests may both renew at the turn; each signature is valid, the later one stays.
                    current = Renew(now);
                }
            }

            return current.Query;
        }
    }

    private Signed Renew(DateTimeOffset now)
    {
        var expiresOn = now + Lifetime;
        var signed = new Signed(_sign!(expiresOn).TrimStart('?'), expiresOn);
        _current = signed;
        return signed;
    }

    private sealed record Signed(string Query, DateTimeOffset ExpiresOn);
}
