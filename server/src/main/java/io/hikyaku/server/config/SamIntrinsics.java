package io.hikyaku.server.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves the intrinsic functions of a template to text, with the server's account and region as the
 * stack's: {@code Ref} (pseudo parameters, parameters with a Default, queues, functions), {@code Fn::GetAtt}
 * (a queue's Arn, QueueName, QueueUrl; a function's Arn), {@code Fn::Sub}, {@code Fn::Join},
 * {@code Fn::Select}, {@code Fn::Split} and {@code Fn::FindInMap}. Anything else (conditions, imports,
 * the stack name) cannot be known without CloudFormation and is an error naming where it was used.
 */
final class SamIntrinsics {

    static final String QUEUE = "AWS::SQS::Queue";
    static final String SAM_FUNCTION = "AWS::Serverless::Function";
    static final String LAMBDA_FUNCTION = "AWS::Lambda::Function";
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    private final String source;
    private final Map<String, Object> template;
    private final String account;
    private final String region;

    SamIntrinsics(String source, Map<String, Object> template, String account, String region) {
        this.source = source;
        this.template = template;
        this.account = account;
        this.region = region;
    }

    /** Why a value cannot be resolved; the caller adds where it was. */
    static final class Unresolvable extends RuntimeException {
        Unresolvable(String message) {
            super(message);
        }
    }

    /** {@code value} as text, or a ConfigException naming the template and {@code where}. */
    String text(String where, Object value) {
        try {
            return resolve(value);
        } catch (Unresolvable e) {
            throw new ConfigException(source + ": " + where + ": " + e.getMessage(), e);
        }
    }

    /** A queue's name (see {@link #queueName}), or a ConfigException naming the template and {@code where}. */
    String queueNameAt(String where, String logicalId) {
        try {
            return queueName(logicalId);
        } catch (Unresolvable e) {
            throw new ConfigException(source + ": " + where + ": " + e.getMessage(), e);
        }
    }

    /** A function's name (see {@link #functionName}), or a ConfigException naming the template and {@code where}. */
    String functionNameAt(String where, String logicalId) {
        try {
            return functionName(logicalId);
        } catch (Unresolvable e) {
            throw new ConfigException(source + ": " + where + ": " + e.getMessage(), e);
        }
    }

    /** {@code value} with every intrinsic inside it resolved (maps and lists kept). */
    Object deep(String where, Object value) {
        try {
            return deep(value);
        } catch (Unresolvable e) {
            throw new ConfigException(source + ": " + where + ": " + e.getMessage(), e);
        }
    }

    private Object deep(Object value) {
        if (isIntrinsic(value)) {
            return resolve(value);
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), deep(v)));
            return out;
        }
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(v -> out.add(deep(v)));
            return out;
        }
        return value;
    }

    static boolean isIntrinsic(Object value) {
        if (!(value instanceof Map<?, ?> m) || m.size() != 1) {
            return false;
        }
        String key = String.valueOf(m.keySet().iterator().next());
        return key.equals("Ref") || key.equals("Condition") || key.startsWith("Fn::");
    }

    private String resolve(Object value) {
        if (value == null) {
            throw new Unresolvable("no value");
        }
        if (value instanceof List<?>) {
            throw new Unresolvable("expected a single value, got a list");
        }
        if (!(value instanceof Map<?, ?> m)) {
            return value.toString();
        }
        if (!isIntrinsic(m)) {
            throw new Unresolvable("expected a single value, got a mapping");
        }
        Map.Entry<?, ?> e = m.entrySet().iterator().next();
        String fn = String.valueOf(e.getKey());
        Object arg = e.getValue();
        return switch (fn) {
            case "Ref" -> ref(resolve(arg));
            case "Fn::GetAtt" -> getAtt(arg);
            case "Fn::Sub" -> sub(arg);
            case "Fn::Join" -> join(arg);
            case "Fn::Select" -> select(arg);
            case "Fn::FindInMap" -> findInMap(arg);
            default -> throw new Unresolvable(shortForm(fn) + " is not supported here (there is no CloudFormation stack)");
        };
    }

    private static String shortForm(String fn) {
        return "!" + (fn.startsWith("Fn::") ? fn.substring(4) : fn);
    }

    private String ref(String name) {
        switch (name) {
            case "AWS::Region":
                return region;
            case "AWS::AccountId":
                return account;
            case "AWS::Partition":
                return "aws";
            case "AWS::URLSuffix":
                return "amazonaws.com";
            default:
                break;
        }
        if (name.startsWith("AWS::")) {
            throw new Unresolvable("cannot resolve !Ref " + name + " (there is no CloudFormation stack)");
        }
        Map<String, Object> parameter = section("Parameters").get(name) instanceof Map<?, ?> p ? cast(p) : null;
        if (parameter != null) {
            if (parameter.get("Default") == null) {
                throw new Unresolvable("cannot resolve !Ref " + name + ": the parameter has no Default");
            }
            return resolve(parameter.get("Default"));
        }
        String type = typeOf(name);
        if (QUEUE.equals(type)) {
            return "https://sqs." + region + ".amazonaws.com/" + account + "/" + queueName(name);
        }
        if (SAM_FUNCTION.equals(type) || LAMBDA_FUNCTION.equals(type)) {
            return functionName(name);
        }
        throw new Unresolvable("cannot resolve !Ref " + name + (type == null ? ": no such parameter or resource" : " (a " + type + ")"));
    }

    private String getAtt(Object arg) {
        List<?> parts = arg instanceof List<?> l ? l : arg instanceof String s ? List.of(s.split("\\.", 2)) : List.of();
        if (parts.size() != 2) {
            throw new Unresolvable("!GetAtt needs a resource and an attribute");
        }
        String resource = resolve(parts.get(0));
        String attribute = resolve(parts.get(1));
        String type = typeOf(resource);
        if (QUEUE.equals(type)) {
            switch (attribute) {
                case "Arn":
                    return "arn:aws:sqs:" + region + ":" + account + ":" + queueName(resource);
                case "QueueName":
                    return queueName(resource);
                case "QueueUrl":
                    return "https://sqs." + region + ".amazonaws.com/" + account + "/" + queueName(resource);
                default:
                    break;
            }
        }
        if ((SAM_FUNCTION.equals(type) || LAMBDA_FUNCTION.equals(type)) && attribute.equals("Arn")) {
            return "arn:aws:lambda:" + region + ":" + account + ":function:" + functionName(resource);
        }
        throw new Unresolvable("cannot resolve !GetAtt " + resource + "." + attribute
                + (type == null ? ": no such resource" : " (a " + type + ")"));
    }

    private String sub(Object arg) {
        String text;
        Map<?, ?> variables = Map.of();
        if (arg instanceof List<?> l && l.size() == 2 && l.get(1) instanceof Map<?, ?> vars) {
            text = resolve(l.get(0));
            variables = vars;
        } else {
            text = resolve(arg);
        }
        Matcher m = SUB_VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1).trim();
            String replacement;
            if (name.startsWith("!")) {
                replacement = "${" + name.substring(1) + "}"; // ${!Literal} is written as ${Literal}
            } else if (variables.containsKey(name)) {
                replacement = resolve(variables.get(name));
            } else if (name.contains(".") && !name.startsWith("AWS::")) {
                replacement = getAtt(List.of(name.substring(0, name.indexOf('.')), name.substring(name.indexOf('.') + 1)));
            } else {
                replacement = ref(name);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private String join(Object arg) {
        if (!(arg instanceof List<?> l) || l.size() != 2 || !(l.get(1) instanceof List<?> items)) {
            throw new Unresolvable("!Join needs a delimiter and a list");
        }
        List<String> parts = new ArrayList<>();
        items.forEach(i -> parts.add(resolve(i)));
        return String.join(resolve(l.get(0)), parts);
    }

    private String select(Object arg) {
        if (!(arg instanceof List<?> l) || l.size() != 2) {
            throw new Unresolvable("!Select needs an index and a list");
        }
        int index;
        try {
            index = Integer.parseInt(resolve(l.get(0)));
        } catch (NumberFormatException e) {
            throw new Unresolvable("!Select needs a numeric index");
        }
        List<String> items = new ArrayList<>();
        if (l.get(1) instanceof List<?> list) {
            list.forEach(i -> items.add(resolve(i)));
        } else if (l.get(1) instanceof Map<?, ?> split && split.containsKey("Fn::Split")
                && split.get("Fn::Split") instanceof List<?> sp && sp.size() == 2) {
            items.addAll(List.of(resolve(sp.get(1)).split(Pattern.quote(resolve(sp.get(0))), -1)));
        } else {
            throw new Unresolvable("!Select needs a list or a !Split");
        }
        if (index < 0 || index >= items.size()) {
            throw new Unresolvable("!Select index " + index + " is out of range");
        }
        return items.get(index);
    }

    private String findInMap(Object arg) {
        if (!(arg instanceof List<?> l) || l.size() != 3) {
            throw new Unresolvable("!FindInMap needs a map name and two keys");
        }
        Object v = section("Mappings");
        for (Object key : l) {
            String k = resolve(key);
            if (!(v instanceof Map<?, ?> m) || !m.containsKey(k)) {
                throw new Unresolvable("!FindInMap: no key " + k);
            }
            v = m.get(k);
        }
        return resolve(v);
    }

    /** A queue's name: its QueueName, else the logical id (plus .fifo for a FIFO queue, as SQS requires). */
    String queueName(String logicalId) {
        Map<String, Object> p = properties(logicalId);
        if (p.get("QueueName") != null) {
            return resolve(p.get("QueueName"));
        }
        boolean fifo = p.get("FifoQueue") != null && resolve(p.get("FifoQueue")).equalsIgnoreCase("true");
        return fifo ? logicalId + ".fifo" : logicalId;
    }

    /** A function's name: its FunctionName, else the logical id. */
    String functionName(String logicalId) {
        Object name = properties(logicalId).get("FunctionName");
        return name == null ? logicalId : resolve(name);
    }

    String source() {
        return source;
    }

    Map<String, Object> resources() {
        return section("Resources");
    }

    /** The resource's Type, or null when there is no such resource. */
    String typeOf(String logicalId) {
        return resources().get(logicalId) instanceof Map<?, ?> r && r.get("Type") != null ? r.get("Type").toString() : null;
    }

    Map<String, Object> properties(String logicalId) {
        return resources().get(logicalId) instanceof Map<?, ?> r && r.get("Properties") instanceof Map<?, ?> p ? cast(p) : Map.of();
    }

    Map<String, Object> section(String name) {
        return template.get(name) instanceof Map<?, ?> m ? cast(m) : Map.of();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }
}
