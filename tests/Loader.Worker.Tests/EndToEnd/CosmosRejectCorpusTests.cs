using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// The reject corpus loaded into Cosmos DB, through the real SDK and the stand-in, in both modes: the same inputs
/// and the same promises (every row written, superseded or rejected with its line and reason), with the
/// expectations of each case's <c>cosmos</c> section where Cosmos DB's rules decide otherwise.
/// </summary>
public sealed class CosmosRejectCorpusTests(CosmosStandInFixture cosmos) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>Every corpus case, header faults included (Cosmos DB's property names are not Table Storage's), in both modes.</summary>
    public static TheoryData<string, string> Cases()
    {
        var cases = new TheoryData<string, string>();
        foreach (var name in CorpusCase.Names().Concat(CorpusCase.Names("regressions")))
        {
            cases.Add(name, "TransactionalBatch");
            cases.Add(name, "Bulk");
        }

        return cases;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Every_row_of_a_corpus_file_is_written_superseded_or_rejected_with_its_line_and_reason(string name, string mode)
    {
        var store = new CosmosCorpusStore(cosmos, CosmosStandInFixture.UniqueContainerName("corpus"), mode);

        await CorpusRunner.LoadAndVerifyAsync(store, _directory, CorpusCase.Load(name, "Cosmos"), _cancellation);
    }
}
