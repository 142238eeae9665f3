package dev.shuttle.lab.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: a header row, rows of cells, the first column left-aligned and the others right-aligned
 * (they hold figures). Rows marked as notes are drawn the same way; callers style them by their label.
 */
public final class TextTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(List<String> header) {
        this.header = List.copyOf(header);
    }

    public TextTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells, header " + header.size());
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public List<String> header() {
        return header;
    }

    public List<List<String>> rows() {
        return List.copyOf(rows);
    }

    public String render() {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = header.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths);
        int total = 0;
        for (int w : widths) {
            total += w + 2;
        }
        out.append("-".repeat(Math.max(0, total - 2))).append('\n');
        for (List<String> row : rows) {
            line(out, row, widths);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            String pad = " ".repeat(widths[i] - cell.length());
            line.append(i == 0 ? cell + pad : pad + cell);
            if (i < cells.size() - 1) {
                line.append("  ");
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
