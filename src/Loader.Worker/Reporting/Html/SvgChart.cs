using System.Globalization;
using System.Net;
using System.Text;

namespace Loader.Worker.Reporting.Html;

/// <summary>
/// Charts as inline SVG, so the report needs no script and nothing from the network: a line chart over the load's
/// time, a histogram on a log scale, a distribution in doubling buckets, and bars of shares. Every element a reader (or a test) looks for is marked: the chart's
/// <c>data-chart</c>, the series' <c>polyline</c> with one point per timeline entry, the bars, the markers.
/// </summary>
internal static class SvgChart
{
    private const int Width = 640;
    private const int Height = 220;
    private const int Left = 64;
    private const int Right = 16;
    private const int Top = 16;
    private const int Bottom = 36;
    private const int PlotWidth = Width - Left - Right;
    private const int PlotHeight = Height - Top - Bottom;

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    /// <summary>A series over time: one value per timeline entry, at its time in seconds.</summary>
    public sealed record Series(string Name, string CssClass, IReadOnlyList<double> Values);

    /// <summary>A line chart of one or two series (the second drawn dashed: a limit or a target) against seconds.</summary>
    public static string Line(string id, string title, string unit, IReadOnlyList<double> seconds, Series main, Series? reference = null)
    {
        var top = NiceCeiling(Math.Max(main.Values.DefaultIfEmpty(0).Max(), reference?.Values.DefaultIfEmpty(0).Max() ?? 0));
        var right = NiceCeiling(seconds.DefaultIfEmpty(0).Max());
        var svg = Open(id, title);
        YAxis(svg, top, unit);
        XAxis(svg, right, value => Number(value) + " s", "seconds since the load started");
        if (reference is not null)
        {
            Polyline(svg, reference, seconds, right, top, dashed: true);
        }

        Polyline(svg, main, seconds, right, top, dashed: false);
        Legend(svg, reference is null ? [main] : [main, reference]);
        return Close(svg);
    }

    /// <summary>Bars of the latency buckets on a log axis, with a marked line at each percentile.</summary>
    public static string Histogram(string id, string title, IReadOnlyList<LatencyBucket> buckets, IReadOnlyList<(string Label, double Milliseconds)> markers)
    {
        var svg = Open(id, title);
        if (buckets.Count == 0)
        {
            svg.Append(s_invariant, $"<text class=\"empty\" x=\"{Left + PlotWidth / 2}\" y=\"{Top + PlotHeight / 2}\" text-anchor=\"middle\">no requests were sent</text>");
            return Close(svg);
        }

        var low = Math.Log10(buckets[0].FromMs);
        var high = Math.Log10(buckets[^1].ToMs);
        double X(double ms) => Left + (PlotWidth * (Math.Log10(Math.Max(ms, buckets[0].FromMs)) - low) / Math.Max(1e-9, high - low));
        var top = NiceCeiling(buckets.Max(bucket => bucket.Requests));
        YAxis(svg, top, "requests");
        // Ticks at 1, 2 and 5 of each decade when the range spans few decades, at each decade otherwise.
        var steps = high - low < 2.5 ? new[] { 1.0, 2, 5 } : [1.0];
        for (var decade = Math.Floor(low); decade <= high; decade++)
        {
            foreach (var step in steps)
            {
                var ms = step * Math.Pow(10, decade);
                if (ms < buckets[0].FromMs || ms > buckets[^1].ToMs)
                {
                    continue;
                }

                svg.Append(s_invariant, $"<line class=\"grid\" x1=\"{X(ms):0.#}\" x2=\"{X(ms):0.#}\" y1=\"{Top}\" y2=\"{Top + PlotHeight}\"/>");
                svg.Append(s_invariant, $"<text class=\"tick\" x=\"{X(ms):0.#}\" y=\"{Top + PlotHeight + 14}\" text-anchor=\"middle\">{Number(ms)} ms</text>");
            }
        }

        svg.Append(s_invariant, $"<text class=\"axis-label\" x=\"{Left + PlotWidth / 2}\" y=\"{Height - 4}\" text-anchor=\"middle\">request latency (log scale)</text>");
        foreach (var bucket in buckets)
        {
            var x = X(bucket.FromMs);
            var width = Math.Max(1, X(bucket.ToMs) - x - 1);
            var height = PlotHeight * bucket.Requests / top;
            svg.Append(s_invariant, $"<rect class=\"bar\" x=\"{x:0.#}\" y=\"{Top + PlotHeight - height:0.#}\" width=\"{width:0.#}\" height=\"{height:0.#}\" data-requests=\"{bucket.Requests}\">");
            svg.Append(s_invariant, $"<title>{Number(bucket.FromMs)}–{Number(bucket.ToMs)} ms: {bucket.Requests:N0} requests</title></rect>");
        }

        for (var i = 0; i < markers.Count; i++)
        {
            var (label, ms) = markers[i];
            var x = X(ms);
            svg.Append(s_invariant, $"<line class=\"marker\" data-marker=\"{Encode(label)}\" x1=\"{x:0.#}\" x2=\"{x:0.#}\" y1=\"{Top}\" y2=\"{Top + PlotHeight}\"/>");
            var onTheLeft = x > Left + (PlotWidth * 0.75);
            svg.Append(s_invariant, $"<text class=\"marker-label\" x=\"{(onTheLeft ? x - 3 : x + 3):0.#}\" y=\"{Top + 10 + (i * 12)}\" text-anchor=\"{(onTheLeft ? "end" : "start")}\">{Encode(label)} {Number(ms)} ms</text>");
        }

        return Close(svg);
    }

    /// <summary>One bar of <see cref="Distribution"/>: a bucket of a log scale, its count, its share of a total (0 to 1) and what its tooltip says.</summary>
    public sealed record Bucket(double From, long Count, double Share, string Tooltip);

    /// <summary>
    /// Bars of buckets on a log axis, each bucket a doubling of the one before (so all are as wide): a distribution that
    /// spans orders of magnitude, such as rows per partition. Beside each bar, a narrower one shows the bucket's share of a
    /// total on a scale of 0 to 100% (the rows those partitions hold): skew is a short bar with a tall share beside it.
    /// Every bucket that holds anything is drawn at least a few pixels high, so a single partition far out still shows.
    /// </summary>
    public static string Distribution(string id, string title, string xLabel, string yLabel, string shareLabel, IReadOnlyList<Bucket> buckets)
    {
        var svg = Open(id, title);
        if (buckets.Count == 0)
        {
            svg.Append(s_invariant, $"<text class=\"empty\" x=\"{Left + PlotWidth / 2}\" y=\"{Top + PlotHeight / 2}\" text-anchor=\"middle\">nothing to show</text>");
            return Close(svg);
        }

        var top = NiceCeiling(buckets.Max(bucket => bucket.Count));
        YAxis(svg, top, yLabel);
        // Room on the right for the share's axis.
        const int plotWidth = PlotWidth - 28;
        var width = (double)plotWidth / buckets.Count;
        // Every tick when they fit, else every second or fourth.
        var tickEvery = buckets.Count <= 12 ? 1 : buckets.Count <= 24 ? 2 : 4;
        for (var i = 0; i < buckets.Count; i++)
        {
            var bucket = buckets[i];
            var x = Left + (i * width);
            if (i % tickEvery == 0)
            {
                svg.Append(s_invariant, $"<text class=\"tick\" x=\"{x:0.#}\" y=\"{Top + PlotHeight + 14}\" text-anchor=\"middle\">{Encode(Number(bucket.From))}</text>");
            }

            var height = bucket.Count == 0 ? 0 : Math.Max(3, PlotHeight * bucket.Count / top);
            var barWidth = Math.Max(1, (width * 0.6) - 1);
            svg.Append(s_invariant, $"<rect class=\"bar\" x=\"{x + 1:0.#}\" y=\"{Top + PlotHeight - height:0.#}\" width=\"{barWidth:0.#}\" height=\"{height:0.#}\" data-count=\"{bucket.Count}\">");
            svg.Append(s_invariant, $"<title>{Encode(bucket.Tooltip)}</title></rect>");
            var share = bucket.Share <= 0 ? 0 : Math.Max(2, PlotHeight * Math.Min(1, bucket.Share));
            svg.Append(s_invariant, $"<rect class=\"share\" x=\"{x + 1 + barWidth:0.#}\" y=\"{Top + PlotHeight - share:0.#}\" width=\"{Math.Max(1, (width * 0.3) - 1):0.#}\" height=\"{share:0.#}\" data-share=\"{bucket.Share:0.####}\">");
            svg.Append(s_invariant, $"<title>{Encode(bucket.Tooltip)}</title></rect>");
        }

        for (var i = 0; i <= 4; i++)
        {
            var y = Top + PlotHeight - (PlotHeight * i / 4.0);
            svg.Append(s_invariant, $"<text class=\"tick\" x=\"{Left + plotWidth + 3}\" y=\"{y + 4:0.#}\">{i * 25}%</text>");
        }

        svg.Append(s_invariant, $"<rect class=\"swatch-count\" x=\"{Left + 8}\" y=\"{Top + 5}\" width=\"10\" height=\"10\" data-legend=\"count\"/><text class=\"legend\" x=\"{Left + 22}\" y=\"{Top + 14}\">{Encode(yLabel)}</text>");
        svg.Append(s_invariant, $"<rect class=\"swatch-share\" x=\"{Left + 30 + (yLabel.Length * 7)}\" y=\"{Top + 5}\" width=\"10\" height=\"10\" data-legend=\"share\"/><text class=\"legend\" x=\"{Left + 44 + (yLabel.Length * 7)}\" y=\"{Top + 14}\">{Encode(shareLabel)} (right, 0–100%)</text>");
        svg.Append(s_invariant, $"<text class=\"axis-label\" x=\"{Left + (plotWidth / 2)}\" y=\"{Height - 4}\" text-anchor=\"middle\">{Encode(xLabel)}</text>");
        return Close(svg);
    }

    /// <summary>One bar of <see cref="Shares"/>: its label, its share of the whole (0 to 1), and the text beside it.</summary>
    public sealed record Part(string Name, string Label, double Share, string Value);

    /// <summary>Horizontal bars, one per part, each as long as its share of a whole (the load's time, say); parts may overlap, so they are not stacked.</summary>
    public static string Shares(string id, string title, IReadOnlyList<Part> parts)
    {
        const int labels = 200;
        const int row = 22;
        var height = Top + (parts.Count * row) + Bottom;
        var plot = Width - labels - Right - 120;
        var svg = Frame(id, title, height);
        svg.Append(s_invariant, $"<rect class=\"plot\" x=\"{labels}\" y=\"{Top}\" width=\"{plot}\" height=\"{parts.Count * row}\"/>");
        for (var i = 0; i <= 4; i++)
        {
            var x = labels + (plot * i / 4.0);
            svg.Append(s_invariant, $"<line class=\"grid\" x1=\"{x:0.#}\" x2=\"{x:0.#}\" y1=\"{Top}\" y2=\"{Top + (parts.Count * row)}\"/>");
            svg.Append(s_invariant, $"<text class=\"tick\" x=\"{x:0.#}\" y=\"{Top + (parts.Count * row) + 14}\" text-anchor=\"middle\">{i * 25}%</text>");
        }

        for (var i = 0; i < parts.Count; i++)
        {
            var part = parts[i];
            var y = Top + (i * row);
            var length = plot * Math.Clamp(part.Share, 0, 1);
            svg.Append(s_invariant, $"<text class=\"legend\" x=\"{labels - 6}\" y=\"{y + 15}\" text-anchor=\"end\">{Encode(part.Label)}</text>");
            svg.Append(s_invariant, $"<rect class=\"bar {Encode(part.Name)}\" data-part=\"{Encode(part.Name)}\" data-share=\"{part.Share:0.####}\" x=\"{labels}\" y=\"{y + 4}\" width=\"{length:0.#}\" height=\"{row - 8}\">");
            svg.Append(s_invariant, $"<title>{Encode(part.Label)}: {Encode(part.Value)}</title></rect>");
            svg.Append(s_invariant, $"<text class=\"tick\" x=\"{labels + plot + 6}\" y=\"{y + 15}\">{Encode(part.Value)}</text>");
        }

        svg.Append(s_invariant, $"<text class=\"axis-label\" x=\"{labels + (plot / 2)}\" y=\"{height - 4}\" text-anchor=\"middle\">share of the load's time</text>");
        return Close(svg);
    }

    private static StringBuilder Open(string id, string title)
    {
        var svg = Frame(id, title, Height);
        svg.Append(s_invariant, $"<rect class=\"plot\" x=\"{Left}\" y=\"{Top}\" width=\"{PlotWidth}\" height=\"{PlotHeight}\"/>");
        return svg;
    }

    private static StringBuilder Frame(string id, string title, int height)
    {
        var svg = new StringBuilder();
        svg.Append(s_invariant, $"<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{Encode(id)}\" data-chart=\"{Encode(id)}\" viewBox=\"0 0 {Width} {height}\" role=\"img\" aria-label=\"{Encode(title)}\">");
        svg.Append(s_invariant, $"<title>{Encode(title)}</title>");
        return svg;
    }

    private static string Close(StringBuilder svg) => svg.Append("</svg>").ToString();

    private static void YAxis(StringBuilder svg, double top, string unit)
    {
        for (var i = 0; i <= 4; i++)
        {
            var value = top * i / 4;
            var y = Top + PlotHeight - (PlotHeight * i / 4.0);
            svg.Append(s_invariant, $"<line class=\"grid\" x1=\"{Left}\" x2=\"{Left + PlotWidth}\" y1=\"{y:0.#}\" y2=\"{y:0.#}\"/>");
            svg.Append(s_invariant, $"<text class=\"tick\" x=\"{Left - 6}\" y=\"{y + 4:0.#}\" text-anchor=\"end\">{Number(value)}</text>");
        }

        svg.Append(s_invariant, $"<text class=\"axis-label\" transform=\"translate(12 {Top + PlotHeight / 2}) rotate(-90)\" text-anchor=\"middle\">{Encode(unit)}</text>");
    }

    private static void XAxis(StringBuilder svg, double right, Func<double, string> label, string title)
    {
        for (var i = 0; i <= 5; i++)
        {
            var x = Left + (PlotWidth * i / 5.0);
            svg.Append(s_invariant, $"<text class=\"tick\" x=\"{x:0.#}\" y=\"{Top + PlotHeight + 14}\" text-anchor=\"middle\">{Encode(label(right * i / 5))}</text>");
        }

        svg.Append(s_invariant, $"<text class=\"axis-label\" x=\"{Left + PlotWidth / 2}\" y=\"{Height - 4}\" text-anchor=\"middle\">{Encode(title)}</text>");
    }

    private static void Polyline(StringBuilder svg, Series series, IReadOnlyList<double> seconds, double right, double top, bool dashed)
    {
        svg.Append(s_invariant, $"<polyline class=\"series {series.CssClass}{(dashed ? " reference" : "")}\" data-series=\"{Encode(series.Name)}\" points=\"");
        for (var i = 0; i < series.Values.Count; i++)
        {
            var x = Left + (PlotWidth * seconds[i] / right);
            var y = Top + PlotHeight - (PlotHeight * series.Values[i] / top);
            svg.Append(s_invariant, $"{(i > 0 ? " " : "")}{x:0.##},{y:0.##}");
        }

        svg.Append("\"/>");
        if (!dashed && series.Values.Count <= MaxDots)
        {
            // Few points: dots too, so a short load's single point is seen.
            for (var i = 0; i < series.Values.Count; i++)
            {
                var x = Left + (PlotWidth * seconds[i] / right);
                var y = Top + PlotHeight - (PlotHeight * series.Values[i] / top);
                svg.Append(s_invariant, $"<circle class=\"dot {series.CssClass}\" cx=\"{x:0.##}\" cy=\"{y:0.##}\" r=\"2.5\"/>");
            }
        }
    }

    private const int MaxDots = 60;

    private static void Legend(StringBuilder svg, IReadOnlyList<Series> series)
    {
        var x = Left + 8;
        foreach (var item in series)
        {
            svg.Append(s_invariant, $"<line class=\"series {item.CssClass}{(item == series[0] ? "" : " reference")}\" x1=\"{x}\" x2=\"{x + 18}\" y1=\"{Top + 10}\" y2=\"{Top + 10}\"/>");
            svg.Append(s_invariant, $"<text class=\"legend\" x=\"{x + 22}\" y=\"{Top + 14}\">{Encode(item.Name)}</text>");
            x += 30 + (item.Name.Length * 7);
        }
    }

    /// <summary>The smallest of 1, 2, 2.5, 5 times a power of ten at or above <paramref name="value"/> (1 for nothing), so the axis ends on a round number.</summary>
    internal static double NiceCeiling(double value)
    {
        if (value <= 0 || !double.IsFinite(value))
        {
            return 1;
        }

        var power = Math.Pow(10, Math.Floor(Math.Log10(value)));
        foreach (var step in new[] { 1, 2, 2.5, 5, 10 })
        {
            if (step * power >= value * 0.999999)
            {
                return step * power;
            }
        }

        return 10 * power;
    }

    internal static string Number(double value) => Math.Abs(value) switch
    {
        0 => "0",
        >= 100 => value.ToString("N0", s_invariant),
        >= 1 => value.ToString("0.#", s_invariant),
        _ => value.ToString("0.###", s_invariant),
    };

    internal static string Encode(string text) => WebUtility.HtmlEncode(text);
}
