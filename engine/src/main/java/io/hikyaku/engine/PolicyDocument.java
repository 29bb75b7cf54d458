package io.hikyaku.engine;

import java.util.List;

/** Builds the queue Policy JSON exactly as SQS writes it for AddPermission. */
final class PolicyDocument {
    private PolicyDocument() {}

    /** One AddPermission: label, 12-digit account ids, action names without the SQS: prefix. */
    record Statement(String label, List<String> accountIds, List<String> actions) {}

    /**
     * SQS's policy quotas (also enforced by the iam-policy module on a Policy set directly): the
     * document AddPermission would write may hold 20 statements, 50 principals and 8,192 bytes.
     */
    static void checkQuotas(String queueArn, List<Statement> existing, Statement added) {
        List<Statement> all = new java.util.ArrayList<>(existing);
        all.add(added);
        if (all.size() > 20) {
            throw new EngineException(ErrorTypes.OVER_LIMIT,
                    all.size() + " statements were found in the submitted policy, max allowed is 20");
        }
        int principals = all.stream().mapToInt(s -> s.accountIds().size()).sum();
        if (principals > 50) {
            throw new EngineException(ErrorTypes.OVER_LIMIT,
                    principals + " principals were found in the submitted policy, max allowed is 50");
        }
        if (json(queueArn, all).getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 8192) {
            throw new EngineException(ErrorTypes.OVER_LIMIT, "Submitted policy is over max allowed size.");
        }
    }

    static String json(String queueArn, List<Statement> statements) {
        StringBuilder b = new StringBuilder();
        b.append("{\"Version\":\"2008-10-17\",\"Id\":").append(quote(queueArn + "/SQSDefaultPolicy"))
                .append(",\"Statement\":[");
        for (int i = 0; i < statements.size(); i++) {
            Statement s = statements.get(i);
            if (i > 0) {
                b.append(',');
            }
            b.append("{\"Sid\":").append(quote(s.label())).append(",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":");
            appendOneOrList(b, s.accountIds().stream().map(a -> "arn:aws:iam::" + a + ":root").toList());
            b.append("},\"Action\":");
            appendOneOrList(b, s.actions().stream().map(a -> "SQS:" + a).toList());
            b.append(",\"Resource\":").append(quote(queueArn)).append('}');
        }
        return b.append("]}").toString();
    }

    private static void appendOneOrList(StringBuilder b, List<String> values) {
        if (values.size() == 1) {
            b.append(quote(values.get(0)));
            return;
        }
        b.append('[');
        for (int i = 0; i < values.size(); i++) {
            b.append(i > 0 ? "," : "").append(quote(values.get(i)));
        }
        b.append(']');
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
