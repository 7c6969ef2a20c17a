using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Loader.Worker.Tests.Architecture;

/// <summary>One place where a file of one folder names something of another.</summary>
public sealed record FolderUse(string From, string To, string File, int Line, string Text)
{
    public override string ToString() => $"{File}:{Line} {Text}";
}

/// <summary>
/// Which top-level folder of the loader uses which, read from its source (<see cref="ProjectNames"/>): a use is a
/// <c>using</c> of a folder's namespace or a name qualified with one. Subfolders count as their top folder. Comments,
/// doc-comment crefs included, are not uses: they bind nothing at run time.
/// </summary>
public sealed class FolderGraph
{
    /// <summary>The folder of the files at the top of the project (Program.cs).</summary>
    public const string Root = "(root)";

    private const string ProjectNamespace = "Loader.Worker";

    private readonly SortedDictionary<string, SortedSet<string>> _uses = new(StringComparer.Ordinal);

    private FolderGraph(IReadOnlyList<FolderUse> uses, IReadOnlyList<string> misplaced)
    {
        Uses = uses;
        Misplaced = misplaced;
        foreach (var use in uses)
        {
            UsesOf(use.From).Add(use.To);
            UsesOf(use.To);
        }
    }

    /// <summary>Every use of one folder by another, one per file and name.</summary>
    public IReadOnlyList<FolderUse> Uses { get; }

    /// <summary>Files whose namespace is not their folder's: the graph would put their types in the wrong folder.</summary>
    public IReadOnlyList<string> Misplaced { get; }

    public IEnumerable<string> Folders => _uses.Keys;

    public IReadOnlySet<string> UsedBy(string folder) => _uses.TryGetValue(folder, out var used) ? used : new SortedSet<string>();

    /// <summary>Reads every C# file of a project directory (bin and obj left out).</summary>
    public static FolderGraph Read(string projectDirectory)
    {
        var files = Directory.EnumerateFiles(projectDirectory, "*.cs", SearchOption.AllDirectories)
            .Select(path => Path.GetRelativePath(projectDirectory, path).Replace('\\', '/'))
            .Where(path => !path.StartsWith("bin/", StringComparison.Ordinal) && !path.StartsWith("obj/", StringComparison.Ordinal))
            .Order(StringComparer.Ordinal)
            .Select(path => (path, File.ReadAllText(Path.Combine(projectDirectory, path))));
        return From(files);
    }

    /// <summary>Builds the graph from files given as (path inside the project, text).</summary>
    public static FolderGraph From(IEnumerable<(string Path, string Text)> files)
    {
        var parsed = files.Select(file => (file.Path, Tree: CSharpSyntaxTree.ParseText(file.Text, path: file.Path))).ToList();
        var declared = ProjectNames.Of(parsed.Select(file => file.Tree.GetCompilationUnitRoot()));

        var uses = new List<FolderUse>();
        var misplaced = new List<string>();
        foreach (var (path, tree) in parsed)
        {
            var root = tree.GetCompilationUnitRoot();
            var folder = FolderOf(path);
            var expected = ExpectedNamespace(path);
            foreach (var declaredNamespace in root.DescendantNodes().OfType<BaseNamespaceDeclarationSyntax>().Select(ProjectNames.NamespaceOf))
            {
                if (declaredNamespace != expected)
                {
                    misplaced.Add($"{path}: namespace {declaredNamespace}, its folder says {expected}");
                }
            }

            foreach (var (node, target) in declared.UsesIn(root))
            {
                if (TopFolder(target) is { } to && to != folder)
                {
                    // A.B.Member holds A.B: on one line, the shortest name that reaches the folder stands for the use.
                    var use = new FolderUse(folder, to, path, node.GetLocation().GetLineSpan().StartLinePosition.Line + 1, node.ToString());
                    var same = uses.FindIndex(seen => seen with { Text = use.Text } == use);
                    if (same < 0)
                    {
                        uses.Add(use);
                    }
                    else if (use.Text.Length < uses[same].Text.Length)
                    {
                        uses[same] = use;
                    }
                }
            }
        }

        return new FolderGraph(uses, misplaced);
    }

    /// <summary>
    /// The cycles, one for each use between folders that lies on one: that use followed by the shortest way back.
    /// Every use that has to go for the graph to have no cycle is in one of them.
    /// </summary>
    public IReadOnlyList<IReadOnlyList<string>> Cycles()
    {
        var cycles = new SortedDictionary<string, IReadOnlyList<string>>(StringComparer.Ordinal);
        foreach (var (from, used) in _uses)
        {
            foreach (var to in used)
            {
                if (ShortestPath(to, from) is { } back)
                {
                    var cycle = Canonical([from, .. back]);
                    cycles.TryAdd(string.Join(" -> ", cycle), cycle);
                }
            }
        }

        return [.. cycles.Values.OrderBy(cycle => cycle.Count).ThenBy(cycle => string.Join(" -> ", cycle), StringComparer.Ordinal)];
    }

    public static string Format(IReadOnlyList<string> cycle) => string.Join(" -> ", cycle);

    /// <summary>The graph, one line per folder, then the cycles and the uses in them, for the test's output.</summary>
    public string Describe()
    {
        var width = _uses.Keys.Max(folder => folder.Length);
        var lines = new List<string> { "Folders of src/Loader.Worker and the folders each uses:" };
        lines.AddRange(_uses.Select(entry => $"  {entry.Key.PadRight(width)} -> {(entry.Value.Count == 0 ? "-" : string.Join(", ", entry.Value))}"));

        var cycles = Cycles();
        lines.Add($"Cycles ({cycles.Count}):");
        lines.AddRange(cycles.Select(cycle => "  " + Format(cycle)));

        var cyclic = cycles.SelectMany(cycle => cycle.Zip(cycle.Skip(1))).ToHashSet();
        if (cyclic.Count > 0)
        {
            lines.Add("Uses on a cycle:");
            foreach (var group in Uses.Where(use => cyclic.Contains((use.From, use.To))).GroupBy(use => (use.From, use.To)).OrderBy(group => group.Key))
            {
                lines.Add($"  {group.Key.From} -> {group.Key.To}");
                lines.AddRange(group.Select(use => "      " + use));
            }
        }

        return string.Join(Environment.NewLine, lines);
    }

    private SortedSet<string> UsesOf(string folder)
    {
        if (!_uses.TryGetValue(folder, out var used))
        {
            _uses[folder] = used = new SortedSet<string>(StringComparer.Ordinal);
        }

        return used;
    }

    /// <summary>Breadth first, neighbours in name order, so the same graph always names the same cycles.</summary>
    private List<string>? ShortestPath(string from, string to)
    {
        var previous = new Dictionary<string, string> { [from] = from };
        var queue = new Queue<string>([from]);
        while (queue.TryDequeue(out var folder))
        {
            if (folder == to)
            {
                var path = new List<string> { to };
                while (path[^1] != from)
                {
                    path.Add(previous[path[^1]]);
                }

                path.Reverse();
                return path;
            }

            foreach (var next in UsedBy(folder).Where(next => previous.TryAdd(next, folder)))
            {
                queue.Enqueue(next);
            }
        }

        return null;
    }

    /// <summary>A cycle (first folder repeated last) started at its first folder in name order.</summary>
    private static List<string> Canonical(List<string> cycle)
    {
        var ring = cycle[..^1];
        var start = ring.IndexOf(ring.Min(StringComparer.Ordinal)!);
        var rotated = ring[start..].Concat(ring[..start]).ToList();
        rotated.Add(rotated[0]);
        return rotated;
    }

    private static string FolderOf(string path) => path.Contains('/', StringComparison.Ordinal) ? path[..path.IndexOf('/', StringComparison.Ordinal)] : Root;

    private static string ExpectedNamespace(string path)
    {
        var directory = Path.GetDirectoryName(path)?.Replace('\\', '/') ?? "";
        return directory.Length == 0 ? ProjectNamespace : ProjectNamespace + "." + directory.Replace('/', '.');
    }

    private static string? TopFolder(string targetNamespace) =>
        targetNamespace.StartsWith(ProjectNamespace + ".", StringComparison.Ordinal)
            ? targetNamespace[(ProjectNamespace.Length + 1)..].Split('.')[0]
            : null;
}
