using System.Text;
using System.Text.RegularExpressions;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Deployment;

/// <summary>
/// Every relative link of the README and the docs leads somewhere: to a file or folder of the repository, and, with a
/// <c>#heading</c>, to a heading of that page. Pages move and headings get renamed; a reader should not meet a dead end.
/// </summary>
public sealed partial class DocumentationLinksTests
{
    /// <summary>
    /// Pages another change writes, already linked to. Each is accepted as missing until it exists; then the test
    /// below asks for it to be taken off this list, so the list never outlives its reason.
    /// </summary>
    private static readonly string[] s_pagesOnTheirWay = [];

    public static TheoryData<string> Pages() => [.. DocumentationFiles.Pages()];

    [Theory]
    [MemberData(nameof(Pages))]
    public void Every_relative_link_of_a_page_leads_to_a_file_or_heading_that_exists(string page)
    {
        var broken = BrokenLinks(page, File.ReadAllText(Path.Combine(RepositoryPaths.Root, page)));

        Assert.True(broken.Count == 0, $"{page} links to what does not exist:{Environment.NewLine}  {string.Join(Environment.NewLine + "  ", broken)}");
    }

    [Fact]
    public void A_page_on_its_way_is_accepted_only_until_it_exists()
    {
        var arrived = s_pagesOnTheirWay.Where(page => File.Exists(Path.Combine(RepositoryPaths.Root, page))).ToList();

        Assert.True(arrived.Count == 0, $"{string.Join(", ", arrived)} exists now: take it off {nameof(DocumentationLinksTests)}.s_pagesOnTheirWay");
    }

    [Fact]
    public void The_check_catches_a_missing_file_and_a_missing_heading()
    {
        const string text = """
            # A page

            ## Quick start

            [fine](docs/resume.md) [fine too](docs/resume.md#what-a-checkpoint-holds) [here](#quick-start) ![picture](docs/html-report.png)
            [web](https://example.com/nowhere) [folder](src/Loader.Worker/) `[in code](nowhere.md)`
            [gone](docs/no-such-page.md) [no heading](docs/resume.md#no-such-heading) [not here](#no-such-heading)

            ```
            [in a code block](nowhere.md)
            ```
            """;

        var broken = BrokenLinks("README.md", text);

        Assert.Equal(["docs/no-such-page.md", "docs/resume.md#no-such-heading", "#no-such-heading"], broken);
    }

    [Theory]
    [InlineData("Estimate a load (`--estimate`)", "estimate-a-load---estimate")]
    [InlineData("5. Check before the first run", "5-check-before-the-first-run")]
    [InlineData("Sharded load: plan, N workers, status", "sharded-load-plan-n-workers-status")]
    public void A_heading_is_linked_to_as_GitHub_writes_its_anchor(string heading, string anchor) =>
        Assert.Equal(anchor, Anchor(heading));

    /// <summary>The targets of the links in <paramref name="text"/> (the page at <paramref name="page"/>) that lead nowhere.</summary>
    private static List<string> BrokenLinks(string page, string text)
    {
        var prose = InlineCode().Replace(CodeBlock().Replace(text, ""), "");
        var folder = Path.GetDirectoryName(Path.Combine(RepositoryPaths.Root, page))!;
        var broken = new List<string>();
        foreach (var target in Link().Matches(prose).Select(match => match.Groups["target"].Value))
        {
            if (target.Contains("://", StringComparison.Ordinal) || target.StartsWith("mailto:", StringComparison.Ordinal))
            {
                continue;
            }

            var hash = target.IndexOf('#', StringComparison.Ordinal);
            var path = hash < 0 ? target : target[..hash];
            var anchor = hash < 0 ? null : target[(hash + 1)..];
            var full = path.Length == 0 ? Path.Combine(RepositoryPaths.Root, page) : Path.GetFullPath(Path.Combine(folder, path));
            var fromRoot = Path.GetRelativePath(RepositoryPaths.Root, full).Replace('\\', '/');
            if (!File.Exists(full) && !Directory.Exists(full))
            {
                if (!s_pagesOnTheirWay.Contains(fromRoot))
                {
                    broken.Add(target);
                }

                continue;
            }

            if (anchor is not null && !Anchors(path.Length == 0 ? text : File.ReadAllText(full)).Contains(anchor))
            {
                broken.Add(target);
            }
        }

        return broken;
    }

    /// <summary>The anchors of a page's headings; a repeated heading's later anchors end in -1, -2, ... as on GitHub.</summary>
    private static HashSet<string> Anchors(string text)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        foreach (var heading in Heading().Matches(CodeBlock().Replace(text, "")).Select(match => match.Groups["text"].Value))
        {
            var anchor = Anchor(heading);
            var unique = anchor;
            for (var n = 1; !anchors.Add(unique); n++)
            {
                unique = $"{anchor}-{n}";
            }
        }

        return anchors;
    }

    /// <summary>GitHub's anchor of a heading: lower case, spaces as hyphens, punctuation other than - and _ dropped.</summary>
    private static string Anchor(string heading)
    {
        var anchor = new StringBuilder();
        foreach (var c in heading.Trim().ToLowerInvariant())
        {
            if (char.IsLetterOrDigit(c) || c is '-' or '_')
            {
                anchor.Append(c);
            }
            else if (c == ' ')
            {
                anchor.Append('-');
            }
        }

        return anchor.ToString();
    }

    [GeneratedRegex(@"\]\((?<target>[^)\s]+)\)")]
    private static partial Regex Link();

    [GeneratedRegex(@"^```.*?^```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex CodeBlock();

    [GeneratedRegex("`[^`\n]*`")]
    private static partial Regex InlineCode();

    [GeneratedRegex(@"^#{1,6} +(?<text>.+?) *$", RegexOptions.Multiline)]
    private static partial Regex Heading();
}
