using System.Net;
using System.Net.Sockets;
using System.Text;
using Azure.Data.Tables;
using Loader.Abstractions;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>
/// Failures with no service answer reach the pipeline as <see cref="BatchStatus.Transient"/> outcomes, never as
/// exceptions: a port nobody listens on, a name that does not resolve, a server that never answers, an answer cut
/// short or not a multipart answer at all. The misbehaving servers are raw sockets on loopback.
/// </summary>
public sealed class TablesAdapterNoAnswerTests
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    private static EntityBatch Batch() =>
        new("p", [new LoadEntity("p", "r", [EntityProperty.FromString("d", "x")], new RowOrigin(1, 2))], WriteMode.Upsert);

    private static TablesAdapter Adapter(string endpoint, TimeSpan? networkTimeout = null)
    {
        var options = TableClientFactory.Options(16, TimeSpan.FromSeconds(30));
        if (networkTimeout is { } timeout)
        {
            options.Retry.NetworkTimeout = timeout;
        }

        var client = new TableClient(
            AzuriteProcess.ConnectionStringAt(endpoint),
            "flights",
            options);
        return new TablesAdapter(client, createTable: false, TimeProvider.System);
    }

    [Fact]
    public async Task A_refused_connection_is_transient()
    {
        var outcome = await Adapter($"http://127.0.0.1:{AzuriteProcess.FreePort()}/devstoreaccount1").WriteBatchAsync(Batch(), _cancellation);

        Assert.Equal((BatchStatus.Transient, 0), (outcome.Status, outcome.StatusCode));
        Assert.StartsWith("no answer from the service", outcome.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_name_that_does_not_resolve_is_transient()
    {
        var outcome = await Adapter("http://no-such-host.invalid:10002/devstoreaccount1").WriteBatchAsync(Batch(), _cancellation);

        Assert.Equal(BatchStatus.Transient, outcome.Status);
    }

    [Fact]
    public async Task A_server_that_never_answers_is_transient_when_the_network_timeout_fires()
    {
        await using var server = await RawServer.StartAsync(_ => null, _cancellation);

        var outcome = await Adapter(server.Endpoint, networkTimeout: TimeSpan.FromMilliseconds(500)).WriteBatchAsync(Batch(), _cancellation);

        Assert.Equal(BatchStatus.Transient, outcome.Status);
        Assert.StartsWith("no answer from the service", outcome.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_answer_cut_short_is_transient()
    {
        await using var server = await RawServer.StartAsync(_ =>
            "HTTP/1.1 202 Accepted\r\nContent-Type: multipart/mixed; boundary=batchresponse_1\r\nContent-Length: 4000\r\n\r\n"
            + "--batchresponse_1\r\nContent-Type: multipart/mixed; boundary=changesetresponse_2\r\n\r\n--changeset", _cancellation);

        var outcome = await Adapter(server.Endpoint).WriteBatchAsync(Batch(), _cancellation);

        Assert.Equal(BatchStatus.Transient, outcome.Status);
    }

    [Fact]
    public async Task A_success_status_whose_body_is_not_a_multipart_answer_is_transient()
    {
        await using var server = await RawServer.StartAsync(_ =>
            "HTTP/1.1 202 Accepted\r\nContent-Type: text/html\r\nContent-Length: 23\r\n\r\n<html>proxy page</html>", _cancellation);

        var outcome = await Adapter(server.Endpoint).WriteBatchAsync(Batch(), _cancellation);

        Assert.Equal(BatchStatus.Transient, outcome.Status);
    }

    [Fact]
    public async Task The_caller_cancelling_is_a_cancellation_not_an_outcome()
    {
        await using var server = await RawServer.StartAsync(_ => null, _cancellation);
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(_cancellation);
        cancel.CancelAfter(TimeSpan.FromMilliseconds(300));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Adapter(server.Endpoint).WriteBatchAsync(Batch(), cancel.Token));
    }

    [Fact]
    public void The_sdk_makes_one_attempt_and_its_network_timeout_comes_after_the_attempt_timeout()
    {
        var options = TableClientFactory.Options(16, TimeSpan.FromSeconds(200));

        Assert.Equal(0, options.Retry.MaxRetries);
        Assert.True(options.Retry.NetworkTimeout > TimeSpan.FromSeconds(200), $"network timeout {options.Retry.NetworkTimeout}");
    }

    /// <summary>Reads one request (headers and Content-Length body) per connection, then writes the given text, or nothing, and closes.</summary>
    private sealed class RawServer : IAsyncDisposable
    {
        private readonly TcpListener _listener;
        private readonly Task _loop;
        private readonly CancellationTokenSource _stop = new();

        private RawServer(Func<string, string?> answer)
        {
            _listener = new TcpListener(IPAddress.Loopback, 0);
            _listener.Start();
            _loop = Task.Run(() => ServeAsync(answer));
        }

        public string Endpoint => $"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/devstoreaccount1";

        public static Task<RawServer> StartAsync(Func<string, string?> answer, CancellationToken cancellationToken)
        {
            cancellationToken.ThrowIfCancellationRequested();
            return Task.FromResult(new RawServer(answer));
        }

        private async Task ServeAsync(Func<string, string?> answer)
        {
            while (!_stop.IsCancellationRequested)
            {
                TcpClient connection;
                try
                {
                    connection = await _listener.AcceptTcpClientAsync(_stop.Token);
                }
                catch (Exception exception) when (exception is OperationCanceledException or SocketException or ObjectDisposedException)
                {
                    return;
                }

                _ = Task.Run(async () =>
                {
                    using (connection)
                    {
                        var stream = connection.GetStream();
                        var request = await ReadRequestAsync(stream);
                        if (answer(request) is { } text)
                        {
                            await stream.WriteAsync(Encoding.ASCII.GetBytes(text));
                            await stream.FlushAsync();
                            return;
                        }

                        // No answer: hold the connection open until the test ends.
                        await Task.Delay(Timeout.Infinite, _stop.Token).ContinueWith(_ => { }, TaskScheduler.Default);
                    }
                });
            }
        }

        private static async Task<string> ReadRequestAsync(NetworkStream stream)
        {
            var buffer = new List<byte>();
            var one = new byte[1];
            while (!EndsWithBlankLine(buffer) && await stream.ReadAsync(one) == 1)
            {
                buffer.Add(one[0]);
            }

            var headers = Encoding.ASCII.GetString([.. buffer]);
            var length = headers.Split("\r\n").FirstOrDefault(line => line.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase)) is { } line
                ? int.Parse(line["Content-Length:".Length..].Trim(), System.Globalization.CultureInfo.InvariantCulture)
                : 0;
            var body = new byte[length];
            await stream.ReadExactlyAsync(body);
            return headers;
        }

        private static bool EndsWithBlankLine(List<byte> buffer) =>
            buffer.Count >= 4 && buffer[^4] == '\r' && buffer[^3] == '\n' && buffer[^2] == '\r' && buffer[^1] == '\n';

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            _listener.Stop();
            await _loop;
            _stop.Dispose();
        }
    }
}
