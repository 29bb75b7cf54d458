package io.hikyaku.it.support;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Just enough XML reading for Query-protocol responses. */
public final class Xml {
    private final Document doc;

    private Xml(Document doc) {
        this.doc = doc;
    }

    public static Xml parse(String xml) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            return new Xml(f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))));
        } catch (Exception e) {
            throw new AssertionError("not well-formed XML: " + e + "\n" + xml, e);
        }
    }

    public String rootName() {
        return doc.getDocumentElement().getLocalName();
    }

    public String rootNamespace() {
        return doc.getDocumentElement().getNamespaceURI();
    }

    /** Text of every element with this local name, in document order. */
    public List<String> all(String localName) {
        NodeList nodes = doc.getElementsByTagNameNS("*", localName);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent());
        }
        return out;
    }

    /** Text of the first element with this local name, or null. */
    public String first(String localName) {
        List<String> all = all(localName);
        return all.isEmpty() ? null : all.get(0);
    }

    public int count(String localName) {
        return doc.getElementsByTagNameNS("*", localName).getLength();
    }

    /** Elements with this local name, for reading Name/Value pairs below them. */
    public List<Element> elements(String localName) {
        NodeList nodes = doc.getElementsByTagNameNS("*", localName);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add((Element) nodes.item(i));
        }
        return out;
    }

    public static String child(Element e, String localName) {
        NodeList nodes = e.getElementsByTagNameNS("*", localName);
        return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
    }
}
