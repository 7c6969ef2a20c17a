using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Loader.Worker.Tests.Architecture;

/// <summary>
/// The namespaces and top-level types a project declares, and the names in its files that reach them: a <c>using</c>,
/// or a name qualified in full (<c>Loader.Worker.Inputs.InputSource</c>) or from the file's namespace the way C#
/// resolves it (<c>Inputs.InputSource</c>). Syntax only, from Roslyn's parser: the source need not compile here.
/// </summary>
/// <remarks>
/// IDE0005 (an unneeded using) is an error in this repository, so a file names another folder's type by a bare name only
/// through a using this reader sees; that is why reading usings and qualified names finds every use.
/// </remarks>
public sealed class ProjectNames
{
    private readonly HashSet<string> _namespaces = new(StringComparer.Ordinal) { "" };
    private readonly HashSet<(string Namespace, string Type)> _types = [];

    /// <summary>Reads the namespaces and top-level type names the files declare.</summary>
    public static ProjectNames Of(IEnumerable<CompilationUnitSyntax> roots)
    {
        var names = new ProjectNames();
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

    /// <summary>The namespace a node is written in, blocks and file-scoped alike.</summary>
    public static string NamespaceOf(SyntaxNode node) => string.Join(".", node.AncestorsAndSelf().OfType<BaseNamespaceDeclarationSyntax>().Reverse().Select(space => space.Name.ToString()));

    /// <summary>Each using and each qualified name in code of a file that resolves to a namespace of the project, with that namespace.</summary>
    public IEnumerable<(SyntaxNode Node, string Namespace)> UsesIn(CompilationUnitSyntax root)
    {
        foreach (var node in root.DescendantNodes())
        {
            var context = NamespaceOf(node);
            switch (node)
            {
                case UsingDirectiveSyntax { NamespaceOrType: var named } when Segments(named) is { } chain:
                    if (Resolve(chain.Names, chain.Global ? "" : context, namespaceAlone: true) is { } used)
                    {
                        yield return (node, used);
                    }

                    break;
                case QualifiedNameSyntax or AliasQualifiedNameSyntax or MemberAccessExpressionSyntax when !InDeclaration(node) && Segments(node) is { } chain:
                    if (Resolve(chain.Names, chain.Global ? "" : context, namespaceAlone: false) is { } reached)
                    {
                        yield return (node, reached);
                    }

                    break;
            }
        }
    }

    /// <summary>
    /// The namespace a dotted name reaches from the namespace it is written in, looked up as C# does: its first part in
    /// the innermost enclosing namespace that has it, then part by part. The name counts when the part after the
    /// namespace is a type declared there (else it is a property or a local that happens to share a folder's name),
    /// or, with <paramref name="namespaceAlone"/> (a using), when it is the namespace itself.
    /// </summary>
    private string? Resolve(List<string> names, string context, bool namespaceAlone)
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
}
