package dev.shuttle.lab.report;

import java.util.List;
import java.util.Locale;

/**
 * A line chart as inline SVG: linear x and y axes from 0, one polyline with dots per series, a legend on top. Each
 * dot has a tooltip with its exact value. No script, no external resource.
 */
public final class SvgLineChart {
    /** One series: a name, a colour, one y per x (NaN = no point). */
    public record Series(String name, String color, List<Double> ys) {
    }

    private static final int LEFT = 64;
    private static final int TOP = 64;
    private static final int PLOT_WIDTH = 520;
    private static final int PLOT_HEIGHT = 280;
    private static final int BOTTOM = 48;

    private SvgLineChart() {
    }

    public static String render(String title, String xLabel, String yLabel, List<Double> xs, List<Series> series) {
        double xMax = niceMax(xs.stream().mapToDouble(Double::doubleValue).max().orElse(1));
        double yMax = niceMax(series.stream().flatMap(s -> s.ys().stream()).filter(y -> !y.isNaN())
                .mapToDouble(Double::doubleValue).max().orElse(1));
        int width = LEFT + PLOT_WIDTH + 24;
        int height = TOP + PLOT_HEIGHT + BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" style=\"max-width:100%%;height:auto\" role=\"img\" aria-label=\"%s\">%n",
                width, height, width, height, Html.escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"15\" font-weight=\"600\">%s"
                + "</text>%n", LEFT, Html.escape(title)));
        int legendX = LEFT;
        for (Series s : series) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"30\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"40\" font-size=\"12\">%s</text>%n", legendX, s.color(), legendX + 16,
                    Html.escape(s.name())));
            legendX += 26 + s.name().length() * 7;
        }
        for (int i = 0; i <= 5; i++) {
            double y = TOP + PLOT_HEIGHT - PLOT_HEIGHT * i / 5.0;
            double x = LEFT + PLOT_WIDTH * i / 5.0;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>%n",
                    LEFT, y, LEFT + PLOT_WIDTH, y, i == 0 ? "#888" : "#e4e4e4", LEFT - 6, y + 4,
                    number(yMax * i / 5)));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>%n",
                    x, TOP + PLOT_HEIGHT, x, TOP + PLOT_HEIGHT + 4, x, TOP + PLOT_HEIGHT + 18, number(xMax * i / 5)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s"
                + "</text>%n", LEFT + PLOT_WIDTH / 2, TOP + PLOT_HEIGHT + 38, Html.escape(xLabel)));
        svg.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)"
                + "\" text-anchor=\"middle\">%s</text>%n", TOP + PLOT_HEIGHT / 2, TOP + PLOT_HEIGHT / 2,
                Html.escape(yLabel)));
        for (Series s : series) {
            StringBuilder points = new StringBuilder();
            StringBuilder dots = new StringBuilder();
            for (int i = 0; i < xs.size() && i < s.ys().size(); i++) {
                double value = s.ys().get(i);
                if (Double.isNaN(value)) {
                    continue;
                }
                double px = LEFT + xs.get(i) / xMax * PLOT_WIDTH;
                double py = TOP + PLOT_HEIGHT - Math.max(0, value) / yMax * PLOT_HEIGHT; // below 0: on the axis
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                dots.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>"
                        + "%s, %s: %s</title></circle>%n", px, py, s.color(), Html.escape(s.name()),
                        number(xs.get(i)), number(value)));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"2\"/>%n", points.toString().trim(), s.color()));
            svg.append(dots);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** The next of 1, 2, 2.5, 5 times a power of ten at or above {@code value}. */
    static double niceMax(double value) {
        if (!(value > 0)) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= value) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%,d", (long) value).replace(',', ' ')
                : String.format(Locale.ROOT, "%.1f", value);
    }
}
