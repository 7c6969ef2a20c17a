using Loader.Worker.Tests.Infrastructure;

[assembly: AssemblyFixture(typeof(AzuriteFixture))]
[assembly: AssemblyFixture(typeof(CosmosStandInFixture))]
