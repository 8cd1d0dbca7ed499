/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The S3 XML the gateway writes (a small builder: elements, escaped text) and reads (request bodies, parsed with
 * the JDK's DOM parser, external entities and DTDs off). Namespace {@value #NS}.
 */
final class S3Xml {
    static final String NS = "http://s3.amazonaws.com/doc/2006-03-01/";
    /** The most bytes of XML request body the gateway reads (S3's DeleteObjects of 1,000 long keys fits). */
    static final int MAX_REQUEST_BYTES = 2 << 20;
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final StringBuilder sb = new StringBuilder(256);
    private final List<String> open = new ArrayList<>();

    private S3Xml(boolean declaration) {
        if (declaration) {
            sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        }
    }

    /** A document whose root element is {@code root}, in S3's namespace. */
    static S3Xml document(String root) {
        S3Xml x = new S3Xml(true);
        x.sb.append('<').append(root).append(" xmlns=\"").append(NS).append("\">");
        x.open.add(root);
        return x;
    }

    /** A document without the XML declaration (after keep-alive whitespace, which must not precede one). */
    static S3Xml documentWithoutDeclaration(String root) {
        S3Xml x = new S3Xml(false);
        x.sb.append('<').append(root).append(" xmlns=\"").append(NS).append("\">");
        x.open.add(root);
        return x;
    }

    /** The error document (no namespace, as S3 writes it). */
    static String error(String code, String message, String resource, String requestId) {
        S3Xml x = new S3Xml(true);
        x.sb.append("<Error>");
        x.open.add("Error");
        x.element("Code", code).element("Message", message);
        if (resource != null) {
            x.element("Resource", resource);
        }
        return x.element("RequestId", requestId).toString();
    }

    S3Xml start(String name) {
        sb.append('<').append(name).append('>');
        open.add(name);
        return this;
    }

    S3Xml end() {
        sb.append("</").append(open.remove(open.size() - 1)).append('>');
        return this;
    }

    S3Xml element(String name, String text) {
        sb.append('<').append(name).append('>');
        escape(text == null ? "" : text);
        sb.append("</").append(name).append('>');
        return this;
    }

    S3Xml element(String name, long value) {
        return element(name, Long.toString(value));
    }

    S3Xml element(String name, boolean value) {
        return element(name, Boolean.toString(value));
    }

    static String time(long epochMillis) {
        return ISO.format(Instant.ofEpochMilli(epochMillis));
    }

    private void escape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                case '\r' -> sb.append("&#13;");
                case '\n' -> sb.append("&#10;");
                default -> sb.append(c);
            }
        }
    }

    @Override
    public String toString() {
        while (!open.isEmpty()) {
            end();
        }
        return sb.toString();
    }

    /**
     * Parses a request body and checks its root element's local name.
     *
     * @throws S3Exception MalformedXML if it is not well-formed XML with that root
     */
    static Element parse(byte[] body, String root) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            Document d = b.parse(new ByteArrayInputStream(body));
            Element e = d.getDocumentElement();
            if (!root.equals(e.getLocalName())) {
                throw S3Exception.malformedXml("the root element is " + e.getLocalName() + ", expected " + root);
            }
            return e;
        } catch (S3Exception e) {
            throw e;
        } catch (Exception e) {
            throw S3Exception.malformedXml(e.getMessage());
        }
    }

    /** The child elements of {@code parent} with local name {@code name}. */
    static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof Element e && name.equals(e.getLocalName())) {
                out.add(e);
            }
        }
        return out;
    }

    /** The text of the only child {@code name} of {@code parent}, or null if there is none. */
    static String text(Element parent, String name) {
        List<Element> c = children(parent, name);
        if (c.size() > 1) {
            throw S3Exception.malformedXml("more than one " + name + " in " + parent.getLocalName());
        }
        return c.isEmpty() ? null : c.get(0).getTextContent();
    }
}
