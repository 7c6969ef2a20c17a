namespace Loader.Abstractions;

/// <summary>
/// The known name nearest a mistyped one, for a message's "did you mean": the fewest letters inserted, deleted, changed
/// or swapped with a neighbour (optimal string alignment distance), ignoring case. Written here because none of the
/// loader's dependencies measures edit distance and the package feed serves no library that does (Fastenshtein, for
/// one, is not served).
/// </summary>
public static class NearestName
{
    /// <summary>
    /// The name of <paramref name="known"/> nearest <paramref name="name"/>, the first of equals; null when even the
    /// nearest needs more edits than a typo makes: a third of the letters of the name's last part (after its last
    /// <c>:</c>, the part of a key that is typed wrong), at least one, and not all of them.
    /// </summary>
    public static string? Of(string name, IEnumerable<string> known)
    {
        var last = name.Length - name.LastIndexOf(':') - 1;
        var limit = Math.Min(Math.Max(1, last / 3), last - 1);
        string? nearest = null;
        var best = int.MaxValue;
        foreach (var candidate in known)
        {
            var distance = Distance(name, candidate);
            if (distance < best)
            {
                (nearest, best) = (candidate, distance);
            }
        }

        return best <= limit ? nearest : null;
    }

    /// <summary>The edits that turn <paramref name="a"/> into <paramref name="b"/>, ignoring case; a swap of neighbours counts one.</summary>
    public static int Distance(string a, string b)
    {
        a = a.ToUpperInvariant();
        b = b.ToUpperInvariant();
        var edits = new int[a.Length + 1, b.Length + 1];
        for (var i = 0; i <= a.Length; i++)
        {
            edits[i, 0] = i;
        }

        for (var j = 0; j <= b.Length; j++)
        {
            edits[0, j] = j;
        }

        for (var i = 1; i <= a.Length; i++)
        {
            for (var j = 1; j <= b.Length; j++)
            {
                var change = a[i - 1] == b[j - 1] ? 0 : 1;
                edits[i, j] = Math.Min(Math.Min(edits[i - 1, j] + 1, edits[i, j - 1] + 1), edits[i - 1, j - 1] + change);
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                {
                    edits[i, j] = Math.Min(edits[i, j], edits[i - 2, j - 2] + 1);
                }
            }
        }

        return edits[a.Length, b.Length];
    }
}
