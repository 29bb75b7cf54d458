package io.hikyaku.push;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The functions of the config file, each in its account, and how a Lambda FunctionName finds one: a name
 * ({@code my-function}), a full ARN ({@code arn:aws:lambda:us-east-1:123456789012:function:my-function})
 * or a partial ARN ({@code 123456789012:function:my-function}). An ARN must name the caller's account
 * and the server's region. Qualified names (versions, aliases) are not supported. An account sees
 * only its own functions: another account's function is "not found", exactly as Lambda answers
 * for a function the caller's account does not have.
 */
final class Functions {

    /** By {@code account:name}. */
    private final Map<String, FunctionConfig> byAccountAndName = new LinkedHashMap<>();
    private final String region;

    Functions(List<FunctionConfig> functions, String region, String defaultAccount) {
        this.region = region;
        for (FunctionConfig f : functions) {
            String account = f.account() == null ? defaultAccount : f.account();
            if (byAccountAndName.putIfAbsent(account + ":" + f.name(), f) != null) {
                throw new IllegalArgumentException("function " + f.name() + " is declared twice in account " + account);
            }
        }
    }

    /** {@code account}'s function called {@code name}. */
    Optional<FunctionConfig> get(String account, String name) {
        return Optional.ofNullable(byAccountAndName.get(account + ":" + name));
    }

    /** The function {@code functionName} names for {@code account}, or Lambda's ResourceNotFoundException. */
    FunctionConfig resolve(String account, String functionName) {
        String name = nameOf(account, functionName);
        FunctionConfig f = name == null ? null : byAccountAndName.get(account + ":" + name);
        if (f == null) {
            throw LambdaException.notFound("Function not found: " + arnFor(account, functionName));
        }
        return f;
    }

    /** The plain name in {@code functionName}, or null when it names another account, region or a qualifier. */
    String nameOf(String account, String functionName) {
        String[] parts = functionName.split(":", -1);
        if (parts.length == 1) {
            return functionName;
        }
        if (parts.length == 3 && parts[0].equals(account) && parts[1].equals("function")) {
            return parts[2];
        }
        if (parts.length == 7 && parts[0].equals("arn") && parts[2].equals("lambda") && parts[3].equals(region)
                && parts[4].equals(account) && parts[5].equals("function")) {
            return parts[6];
        }
        return null;
    }

    private String arnFor(String account, String functionName) {
        return functionName.startsWith("arn:") ? functionName
                : "arn:aws:lambda:" + region + ":" + account + ":function:" + functionName.substring(functionName.lastIndexOf(':') + 1);
    }
}
