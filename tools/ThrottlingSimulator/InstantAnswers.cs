using System.Globalization;
using System.Text;
using Microsoft.AspNetCore.Http;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// The instant mode's answers, given at once with no service behind the simulator: every entity group transaction
/// succeeds (a valid multipart answer, one <c>204</c> per operation), a table is created, a query finds nothing.
/// It measures the client alone: what a loader can send when the service costs nothing.
/// </summary>
internal static class InstantAnswers
{
    private const string BatchBoundary = "batchresponse_00000000-0000-0000-0000-000000000001";
    private const string ChangesetBoundary = "changesetresponse_00000000-0000-0000-0000-000000000002";

    private static readonly byte[] s_head = Encoding.ASCII.GetBytes(
        $"--{BatchBoundary}\r\nContent-Type: multipart/mixed; boundary={ChangesetBoundary}\r\n\r\n");

    // Each operation's answer as Azure Storage gives it under Prefer: return-no-content.
    private static readonly byte[] s_operation = Encoding.ASCII.GetBytes(
        $"--{ChangesetBoundary}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        + "HTTP/1.1 204 No Content\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nDataServiceVersion: 1.0;\r\n"
        + "ETag: W/\"datetime'2026-01-01T00%3A00%3A00.0000000Z'\"\r\n\r\n");

    private static readonly byte[] s_tail = Encoding.ASCII.GetBytes($"--{ChangesetBoundary}--\r\n--{BatchBoundary}--\r\n");

    /// <summary>Success for each of <paramref name="operations"/>, with the charge the budget took.</summary>
    public static async Task BatchAsync(HttpContext context, int operations, double charge)
    {
        var response = context.Response;
        response.StatusCode = StatusCodes.Status202Accepted;
        response.ContentType = $"multipart/mixed; boundary={BatchBoundary}";
        response.Headers[ServiceErrors.RequestChargeHeader] = charge.ToString(CultureInfo.InvariantCulture);
        response.ContentLength = s_head.Length + ((long)s_operation.Length * operations) + s_tail.Length;
        var body = response.Body;
        await body.WriteAsync(s_head, context.RequestAborted);
        for (var i = 0; i < operations; i++)
        {
            await body.WriteAsync(s_operation, context.RequestAborted);
        }

        await body.WriteAsync(s_tail, context.RequestAborted);
    }

    /// <summary>Anything but a batch: a table created (204), a query with no entities (200), anything else done (204).</summary>
    public static async Task OtherAsync(HttpContext context)
    {
        var response = context.Response;
        if (HttpMethods.IsGet(context.Request.Method))
        {
            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
            await response.WriteAsync("""{"value":[]}""", context.RequestAborted);
            return;
        }

        response.StatusCode = StatusCodes.Status204NoContent;
    }
}
