package dev.shuttle.lab.report;

import java.util.List;

/** A {@link TextTable} as an HTML table; rows whose first cell contains {@code publishedMark} are styled as such. */
final class HtmlTables {
    private HtmlTables() {
    }

    static String of(TextTable table, String publishedMark) {
        StringBuilder out = new StringBuilder("<table>\n<tr>");
        for (String h : table.header()) {
            out.append("<th>").append(Html.escape(h)).append("</th>");
        }
        out.append("</tr>\n");
        for (List<String> row : table.rows()) {
            boolean published = row.getFirst().contains(publishedMark);
            out.append(published ? "<tr class=\"published\">" : "<tr>");
            for (String cell : row) {
                out.append("<td>").append(Html.escape(cell)).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</table>\n");
        return out.toString();
    }
}
