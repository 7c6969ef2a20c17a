using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Loader.Worker.Tests.Architecture;

/// <summary>One place where a file of one folder names something of another.</summary>
public sealed record FolderUse(string From, string To, string File, int Line, string Text)
{
    public override string ToString() => $"{File}:{Line} {Text}";
}

/// <summary>
/// Which top-level folder of the loader uses which, read from its source with Roslyn's parser (syntax only: the source
/// need not compile here). A use is a <c>using</c> of a folder's namespace, or a name qualified with one: in full
/// (<c>Loader.Worker.Inputs.InputSource</c>) or from the file's namespace the way C# resolves it
/// (<c>Inputs.InputSource</c>, <c>Reporting.Html.HtmlReport</c>). Subfolders count as their top folder. Comments,
/// doc-comment crefs included, are not uses: they bind nothing at run time.
/// </summary>
/// <remarks>
/// IDE0005 (an unneeded using) is an error in this repository, so a file names another folder's type by a bare name only
/// through a using this reader sees; that is why reading usings and qualified names finds every use.
/// </remarks>
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
        var declared = DeclaredNames.Of(parsed.Select(file => file.Tree.GetCompilationUnitRoot()));

        var uses = new List<FolderUse>();
        var misplaced = new List<string>();
        foreach (var (path, tree) in parsed)
        {
            var root = tree.GetCompilationUnitRoot();
            var folder = FolderOf(path);
            var expected = ExpectedNamespace(path);
            foreach (var declaredNamespace in root.DescendantNodes().OfType<BaseNamespaceDeclarationSyntax>().Select(NamespaceOf))
            {
                if (declaredNamespace != expected)
                {
                    misplaced.Add($"{path}: namespace {declaredNamespace}, its folder says {expected}");
                }
            }

            foreach (var (node, target) in NamedNamespaces(root, declared))
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

    private static string NamespaceOf(SyntaxNode node) => string.Join(".", node.AncestorsAndSelf().OfType<BaseNamespaceDeclarationSyntax>().Reverse().Select(space => space.Name.ToString()));

    /// <summary>Each using and each qualified name in code that resolves to a namespace of the project, with that namespace.</summary>
    private static IEnumerable<(SyntaxNode Node, string Namespace)> NamedNamespaces(CompilationUnitSyntax root, DeclaredNames declared)
    {
        foreach (var node in root.DescendantNodes())
        {
            var context = NamespaceOf(node);
            switch (node)
            {
                case UsingDirectiveSyntax { NamespaceOrType: var named } when Segments(named) is { } chain:
                    if (declared.Resolve(chain.Names, chain.Global ? "" : context, namespaceAlone: true) is { } used)
                    {
                        yield return (node, used);
                    }

                    break;
                case QualifiedNameSyntax or AliasQualifiedNameSyntax or MemberAccessExpressionSyntax when !InDeclaration(node) && Segments(node) is { } chain:
                    if (declared.Resolve(chain.Names, chain.Global ? "" : context, namespaceAlone: false) is { } reached)
                    {
                        yield return (node, reached);
                    }

                    break;
            }
        }
    }

    /// <summary>Inside a using (read whole above) or the name of a namespace declaration: not a use.</summary>
    private static bool InDeclaration(SyntaxNode node) =>
        node.Ancestors().Any(ancestor => ancestor is UsingDirectiveSyntax || (ancestor is BaseNamespaceDeclarationSyntax space && space.Name.Span.Contains(node.Span)));

    /// <summary>A dotted name as its parts, or null where the expression is more than names (a call, an index, this).</summary>
    private static (List<string> Names, bool Global)? Segments(SyntaxNode node) => node switch
    {
        IdentifierNameSyntax identifier => ([identifier.Identifier.ValueText], false),
        GenericNameSyntax generic => ([generic.Identifier.ValueText], false),
        AliasQualifiedNameSyntax { Alias.Identifier.ValueText: "global" } alias when Segments(alias.Name) is { } name => (name.Names, true),
        QualifiedNameSyntax qualified when Segments(qualified.Left) is { } left && Segments(qualified.Right) is { } right => ([.. left.Names, .. right.Names], left.Global),
        MemberAccessExpressionSyntax { RawKind: (int)SyntaxKind.SimpleMemberAccessExpression } access when Segments(access.Expression) is { } left => ([.. left.Names, access.Name.Identifier.ValueText], left.Global),
        _ => null,
    };

    /// <summary>The namespaces and top-level type names the project declares.</summary>
    private sealed class DeclaredNames
    {
        private readonly HashSet<string> _namespaces = new(StringComparer.Ordinal) { "" };
        private readonly HashSet<(string Namespace, string Type)> _types = [];

        public static DeclaredNames Of(IEnumerable<CompilationUnitSyntax> roots)
        {
            var names = new DeclaredNames();
            foreach (var root in roots)
            {
                foreach (var space in root.DescendantNodes().OfType<BaseNamespaceDeclarationSyntax>().Select(NamespaceOf))
                {
                    var parts = space.Split('.');
                    for (var count = 1; count <= parts.Length; count++)
                    {
                        names._namespaces.Add(string.Join(".", parts[..count]));
                    }
                }

                foreach (var type in root.DescendantNodes().OfType<MemberDeclarationSyntax>().Where(member => member.Parent is BaseNamespaceDeclarationSyntax or CompilationUnitSyntax))
                {
                    var name = type switch
                    {
                        BaseTypeDeclarationSyntax declaration => declaration.Identifier.ValueText,
                        DelegateDeclarationSyntax declaration => declaration.Identifier.ValueText,
                        _ => null,
                    };
                    if (name is not null)
                    {
                        names._types.Add((NamespaceOf(type), name));
                    }
                }
            }

            return names;
        }

        /// <summary>
        /// The namespace a dotted name reaches from the namespace it is written in, looked up as C# does: its first part in
        /// the innermost enclosing namespace that has it, then part by part. The name counts when the part after the
        /// namespace is a type declared there (else it is a property or a local that happens to share a folder's name),
        /// or, with <paramref name="namespaceAlone"/> (a using), when it is the namespace itself.
        /// </summary>
        public string? Resolve(List<string> names, string context, bool namespaceAlone)
        {
            var enclosing = context;
            string? reached = null;
            while (reached is null)
            {
                var candidate = enclosing.Length == 0 ? names[0] : enclosing + "." + names[0];
                if (_namespaces.Contains(candidate))
                {
                    reached = candidate;
                }
                else if (enclosing.Length == 0)
                {
                    return null;
                }
                else
                {
                    enclosing = enclosing.Contains('.', StringComparison.Ordinal) ? enclosing[..enclosing.LastIndexOf('.')] : "";
                }
            }

            var next = 1;
            while (next < names.Count && _namespaces.Contains(reached + "." + names[next]))
            {
                reached += "." + names[next++];
            }

            if (next == names.Count)
            {
                return namespaceAlone ? reached : null;
            }

            return _types.Contains((reached, names[next])) ? reached : null;
        }
    }
}
