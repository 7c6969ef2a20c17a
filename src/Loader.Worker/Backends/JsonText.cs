using System.Globalization;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace Loader.Worker.Backends;

/// <summary>How both backends write request JSON.</summary>
internal static class JsonText
{
    /// <summary>Keeps non-ASCII text as UTF-8 instead of \u escapes: smaller requests, nearer the size estimate.</summary>
    public static readonly JsonWriterOptions WriterOptions = new()
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        SkipValidation = true,
    };

    /// <summary>How a value is shown to a person (a verify report's differing values): non-ASCII text as it is.</summary>
    public static readonly JsonSerializerOptions DisplayOptions = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>A date as both services take it: ISO 8601 in UTC with all seven fractional digits, so stored text sorts as time does.</summary>
    public const string UtcDateTimeFormat = "yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'";

    /// <summary>A date in <see cref="UtcDateTimeFormat"/>.</summary>
    public static string UtcDateTime(DateTime utc) => utc.ToString(UtcDateTimeFormat, CultureInfo.InvariantCulture);
}
