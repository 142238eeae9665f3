package dev.shuttle.lab.report;

/** HTML text helpers shared by the reports. */
final class Html {
    private Html() {
    }

    /** Escapes text for element content and attribute values. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** The page's style sheet: inline, so the report needs no network. */
    static final String STYLE = """
            body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px 32px;
                   color: #1d1d1f; background: #fff; }
            h1 { font-size: 22px; margin-bottom: 4px; }
            h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
            p.meta { color: #555; margin: 2px 0; font-size: 13px; }
            table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
            th, td { padding: 3px 9px; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
            th { background: #f5f5f7; position: sticky; top: 0; }
            td:first-child, th:first-child { text-align: left; }
            tr.published td { color: #8a6d00; font-style: italic; font-size: 12px; border-bottom: 1px solid #ddd; }
            td.bad { color: #b00020; }
            table.sources { max-width: 100%; }
            table.sources th, table.sources td { text-align: left; white-space: normal; vertical-align: top; }
            table.sources td:nth-child(-n+2) { white-space: nowrap; }
            table.sources td.sentence { color: #555; font-size: 12px; min-width: 24em; }
            .note { color: #555; font-size: 12px; max-width: 1100px; }
            svg text { font-family: system-ui, sans-serif; }
            """;
}
