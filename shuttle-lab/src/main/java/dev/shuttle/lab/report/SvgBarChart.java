package dev.shuttle.lab.report;

import java.util.List;
import java.util.Locale;

/**
 * A grouped vertical bar chart as inline SVG: one group per category, one bar per series, a linear y axis from 0,
 * a legend on top. No script, no external resource.
 */
public final class SvgBarChart {
    /** One series: a name for the legend, a fill colour, one value per category (negative = no bar). */
    public record Series(String name, String color, List<Double> values) {
    }

    private static final int LEFT = 56;
    private static final int TOP = 56;
    private static final int PLOT_HEIGHT = 300;
    private static final int LABEL_SPACE = 115;
    private static final int BAR_WIDTH = 7;
    private static final int GROUP_GAP = 12;

    private SvgBarChart() {
    }

    public static String render(String title, String yLabel, List<String> categories, List<Series> series,
                                double yMax) {
        int groupWidth = series.size() * BAR_WIDTH + GROUP_GAP;
        int plotWidth = Math.max(400, categories.size() * groupWidth);
        int width = LEFT + plotWidth + 20;
        int height = TOP + PLOT_HEIGHT + LABEL_SPACE;
        double max = yMax > 0 ? yMax : 1;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "style=\"max-width:100%%;height:auto\" role=\"img\" aria-label=\"%s\">%n", width, height, width, height, Html.escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"15\" font-weight=\"600\">%s"
                + "</text>%n", LEFT, Html.escape(title)));
        legend(svg, series);
        axis(svg, yLabel, plotWidth, max);
        for (int c = 0; c < categories.size(); c++) {
            int groupX = LEFT + c * groupWidth + GROUP_GAP / 2;
            for (int s = 0; s < series.size(); s++) {
                double value = series.get(s).values().get(c);
                if (value < 0) {
                    continue;
                }
                double h = Math.min(value, max) / max * PLOT_HEIGHT;
                // a zero still gets a hairline, so "0" reads differently from "not measured"
                double drawn = Math.max(h, 1);
                svg.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s, %s: %s"
                                + "</title></rect>%n",
                        groupX + s * BAR_WIDTH, TOP + PLOT_HEIGHT - drawn, BAR_WIDTH - 1, drawn,
                        series.get(s).color(), Html.escape(series.get(s).name()), Html.escape(categories.get(c)),
                        trim(value)));
            }
            int labelX = groupX + series.size() * BAR_WIDTH / 2;
            svg.append(String.format(Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\" "
                            + "transform=\"rotate(-45 %d %d)\">%s</text>%n",
                    labelX, TOP + PLOT_HEIGHT + 14, labelX, TOP + PLOT_HEIGHT + 14,
                    Html.escape(categories.get(c))));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static void legend(StringBuilder svg, List<Series> series) {
        int x = LEFT;
        for (Series s : series) {
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"30\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                            + "<text x=\"%d\" y=\"40\" font-size=\"12\">%s</text>%n",
                    x, s.color(), x + 16, Html.escape(s.name())));
            x += 24 + s.name().length() * 7;
        }
    }

    private static void axis(StringBuilder svg, String yLabel, int plotWidth, double max) {
        int ticks = 5;
        for (int i = 0; i <= ticks; i++) {
            double value = max * i / ticks;
            double y = TOP + PLOT_HEIGHT - (double) PLOT_HEIGHT * i / ticks;
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>%n",
                    LEFT, y, LEFT + plotWidth, y, i == 0 ? "#888" : "#e4e4e4", LEFT - 6, y + 4, trim(value)));
        }
        svg.append(String.format(Locale.ROOT,
                "<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
                        + "text-anchor=\"middle\">%s</text>%n",
                TOP + PLOT_HEIGHT / 2, TOP + PLOT_HEIGHT / 2, Html.escape(yLabel)));
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
