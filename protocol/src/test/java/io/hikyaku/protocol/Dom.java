package io.hikyaku.protocol;

import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** Renders parsed XML compactly, e.g. {@code A[B=x,C[D=y]]}, so a test can assert a whole document. */
final class Dom {

    private Dom() {}

    static String render(Element element) {
        StringBuilder out = new StringBuilder();
        render(element, out);
        return out.toString();
    }

    private static void render(Element element, StringBuilder out) {
        out.append(element.getLocalName());
        boolean hasChildren = false;
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element) {
                hasChildren = true;
                break;
            }
        }
        if (!hasChildren) {
            out.append('=').append(element.getTextContent());
            return;
        }
        out.append('[');
        boolean first = true;
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element child) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                render(child, out);
            }
        }
        out.append(']');
    }
}
