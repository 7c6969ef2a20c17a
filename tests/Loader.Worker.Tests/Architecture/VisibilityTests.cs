using Loader.Abstractions;
using Loader.Worker.Hosting;

namespace Loader.Worker.Tests.Architecture;

/// <summary>
/// Loader.Abstractions is the contract adapters and other code may build on; Loader.Worker is an application whose
/// types may change with any commit, so it exports none (tests and benchmarks see them through InternalsVisibleTo).
/// </summary>
public sealed class VisibilityTests
{
    [Fact]
    public void The_worker_exports_no_type()
    {
        var exported = typeof(LoaderHost).Assembly.GetExportedTypes().Select(type => type.FullName).Order().ToList();

        Assert.True(exported.Count == 0, $"Loader.Worker's types are internal; these are public:{Environment.NewLine}  "
            + string.Join($"{Environment.NewLine}  ", exported));
    }

    [Fact]
    public void The_abstractions_stay_the_public_contract()
    {
        var exported = typeof(IBackendAdapter).Assembly.GetExportedTypes();

        Assert.Contains(typeof(IBackendAdapter), exported);
        Assert.Contains(typeof(EntityBatch), exported);
    }
}
