using Loader.Worker.Backends.Tables;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>The Table adapter contract with the SDK's <c>SubmitTransactionAsync</c> (<c>Loader:Tables:Writer=Sdk</c>).</summary>
public sealed class TablesSdkAdapterContractTests(AzuriteFixture azurite) : TablesAdapterContractTests(azurite)
{
    internal override TableWriter Writer => TableWriter.Sdk;
}
