using System.Text;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Verify;

/// <summary>
/// <c>verify</c> against Cosmos DB for NoSQL through the real SDK in Gateway mode and the stand-in, after a real load: a
/// query per logical partition, compared item by item as the load writes them (nested columns, Json columns).
/// </summary>
public sealed class VerifyCosmosTests(CosmosStandInFixture cosmos) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly string _container = CosmosStandInFixture.UniqueContainerName("verify");

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string input)
    {
        var settings = cosmos.LoaderSettings(_container);
        settings["Loader:Input"] = input;
        settings["Loader:PartitionKey"] = "{pk}";
        settings["Loader:RowKey"] = "{rk}";
        settings["Loader:Columns:n"] = "Int32";
        settings["Loader:Columns:tags"] = "Json";
        settings["Loader:ReportPath"] = _directory.File("report.json");
        settings["Loader:RejectsPath"] = _directory.File("rejects.csv");
        return settings;
    }

    private static MemoryStream Json(string text) => new(Encoding.UTF8.GetBytes(text));

    [Fact]
    public async Task After_a_load_verify_is_clean_then_names_exactly_the_deleted_the_changed_and_with_extra_the_stray_item()
    {
        var csv = new CsvText("pk", "rk", "n", "address.city", "tags");
        for (var p = 0; p < 3; p++)
        {
            for (var r = 0; r < 8; r++)
            {
                csv.Row($"p{p}", $"r{r}", r, $"city {r}", $"[\"t{r}\",{r}]");
            }
        }

        var settings = Settings(_directory.WriteCsv("input.csv", csv.ToString()));
        var load = await LoaderRunner.RunAsync(settings, _cancellation);
        Assert.True(load.ExitCode == ExitCodes.Success, load.Summary + load.Logs.AllText);

        var clean = await VerifyRunner.RunAsync(settings, _cancellation, "--extra");
        Assert.True(clean.ExitCode == ExitCodes.Success, clean.Summary + clean.Logs.AllText);
        Assert.Equal((24L, 24L, 3L, 24L), (clean.RequireReport().RowsRead, clean.RequireReport().RowsMatching, clean.RequireReport().Partitions, clean.RequireReport().EntitiesRead));

        var container = cosmos.Client.GetContainer(CosmosStandInFixture.Database, _container);
        using (var deleted = await container.DeleteItemStreamAsync("r3", new PartitionKey("p1"), cancellationToken: _cancellation))
        {
            Assert.True(deleted.IsSuccessStatusCode, deleted.StatusCode.ToString());
        }

        using (var changed = await container.UpsertItemStreamAsync(Json("""{"id":"r6","pk":"p2","rk":"r6","n":6,"address":{"city":"elsewhere"},"tags":["t6",6]}"""), new PartitionKey("p2"), cancellationToken: _cancellation))
        {
            Assert.True(changed.IsSuccessStatusCode, changed.StatusCode.ToString());
        }

        using (var stray = await container.CreateItemStreamAsync(Json("""{"id":"stray","pk":"p0","n":1}"""), new PartitionKey("p0"), cancellationToken: _cancellation))
        {
            Assert.True(stray.IsSuccessStatusCode, stray.StatusCode.ToString());
        }

        var differs = await VerifyRunner.RunAsync(settings, _cancellation);
        Assert.Equal(ExitCodes.TargetDiffers, differs.ExitCode);
        Assert.Equal(["Different p2/r6", "Missing p1/r3"], differs.Findings());
        var different = differs.RequireReport().Examples.Different.Single();
        Assert.Equal(("address", """{"city":"city 6"}""", """{"city":"elsewhere"}"""), (different.Property, different.Expected, different.Stored));

        var withExtra = await VerifyRunner.RunAsync(settings, _cancellation, "--extra");
        Assert.Equal(ExitCodes.TargetDiffers, withExtra.ExitCode);
        Assert.Equal(["Different p2/r6", "Extra p0/stray", "Missing p1/r3"], withExtra.Findings());
        Assert.Equal((22L, 1L, 1L, 1L), (withExtra.RequireReport().RowsMatching, withExtra.RequireReport().RowsMissing, withExtra.RequireReport().RowsDifferent, withExtra.RequireReport().ExtraEntities));
    }
}
