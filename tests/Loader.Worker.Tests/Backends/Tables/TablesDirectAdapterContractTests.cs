using Loader.Worker.Backends.Tables;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>The Table adapter contract with the loader's own transaction body through the SDK's pipeline (the default).</summary>
public sealed class TablesDirectAdapterContractTests(AzuriteFixture azurite) : TablesAdapterContractTests(azurite)
{
    internal override TableWriter Writer => TableWriter.Direct;
}
