using System.Text;
using Loader.Worker.Backends.Tables;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>Parsing of batch responses in the shape Azurite and the Table service send.</summary>
public sealed class TableTransactionResponseTests
{
    private const string Success =
        "--batchresponse_b1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_c1\r\n\r\n"
        + "--changesetresponse_c1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        + "HTTP/1.1 204 No Content\r\nDataServiceVersion: 3.0;\r\nETag: W/\"datetime'2026-11-21T20%3A31%3A44.1006847Z'\"\r\n\r\n\r\n"
        + "--changesetresponse_c1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        + "HTTP/1.1 204 No Content\r\nDataServiceVersion: 3.0;\r\n\r\n\r\n"
        + "--changesetresponse_c1--\r\n--batchresponse_b1--\r\n";

    private const string Conflict =
        "--batchresponse_b1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_c1\r\n\r\n"
        + "--changesetresponse_c1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        + "HTTP/1.1 409 Conflict\r\nContent-ID: 2\r\nDataServiceVersion: 3.0;\r\nContent-Type: application/json;odata=minimalmetadata;charset=utf-8\r\n\r\n"
        + "{\"odata.error\":{\"code\":\"EntityAlreadyExists\",\"message\":{\"lang\":\"en-US\",\"value\":\"1:The specified entity already exists.\\nRequestId:0fd3\\nTime:2026-11-21T20:31:44.107Z\"}}}\r\n"
        + "--changesetresponse_c1--\r\n--batchresponse_b1--\r\n";

    [Fact]
    public void Every_operation_of_a_successful_change_set_is_answered()
    {
        var response = TableTransactionResponse.Parse(Encoding.UTF8.GetBytes(Success));

        Assert.True(response.Succeeded);
        Assert.Equal([204, 204], response.Operations.Select(o => o.StatusCode));
    }

    [Fact]
    public void A_failed_change_set_names_the_failing_operation_its_code_and_a_clean_message()
    {
        var response = TableTransactionResponse.Parse(Encoding.UTF8.GetBytes(Conflict));

        Assert.False(response.Succeeded);
        var failed = Assert.Single(response.Operations);
        Assert.Equal(409, failed.StatusCode);
        Assert.Equal(1, failed.Index);
        Assert.Equal(2, failed.ContentId);
        Assert.Equal("EntityAlreadyExists", failed.Code);
        Assert.Equal("The specified entity already exists.", failed.Message);
    }

    [Theory]
    [InlineData("{\"odata.error\":{\"code\":\"ServerBusy\",\"message\":{\"lang\":\"en-US\",\"value\":\"The server is busy.\\nRequestId:1\"}}}", "ServerBusy", "The server is busy.")]
    [InlineData("<?xml version=\"1.0\"?><Error><Code>X</Code></Error>", "", "<?xml version=\"1.0\"?><Error><Code>X</Code></Error>")]
    [InlineData("", "", "")]
    public void Service_errors_are_read_from_json_or_kept_raw(string body, string code, string message)
    {
        Assert.Equal((code, message), TableServiceError.Parse(body));
    }
}
