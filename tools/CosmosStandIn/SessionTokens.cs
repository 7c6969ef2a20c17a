using System.Globalization;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// The session token and LSN the service puts on every answer to an item request, as one partition key range
/// (<c>0</c>) would count them: <c>x-ms-session-token: 0:-1#&lt;lsn&gt;</c>, <c>lsn: &lt;lsn&gt;</c>, the LSN one more for every
/// write. The SDK keeps the token and sends it back on its reads in session consistency.
/// </summary>
public sealed class SessionTokens
{
    private long _lsn;

    /// <summary>Puts the token on <paramref name="response"/>; <paramref name="wrote"/> moves the LSN on first.</summary>
    public void Stamp(HttpResponse response, bool wrote)
    {
        ArgumentNullException.ThrowIfNull(response);
        var lsn = wrote ? Interlocked.Increment(ref _lsn) : Interlocked.Read(ref _lsn);
        var text = lsn.ToString(CultureInfo.InvariantCulture);
        response.Headers["x-ms-session-token"] = "0:-1#" + text;
        response.Headers["lsn"] = text;
    }
}
