using System.Reflection;

namespace Loader.Worker.Reporting;

/// <summary>The loader's version as <c>--version</c> prints it and the HTML report names it: the assembly's informational version (with the commit it was built from, when the build knew it).</summary>
internal static class LoaderVersion
{
    public static string Informational { get; } =
        typeof(LoaderVersion).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
        ?? typeof(LoaderVersion).Assembly.GetName().Version?.ToString()
        ?? "unknown";
}
