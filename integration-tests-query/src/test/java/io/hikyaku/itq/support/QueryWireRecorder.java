package io.hikyaku.itq.support;

import com.amazonaws.Request;
import com.amazonaws.Response;
import com.amazonaws.handlers.RequestHandler2;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Proves that the SDK really speaks Query/XML: every request it signs must carry its action as an
 * {@code Action} form parameter with {@code Version=2012-11-05} and no {@code X-Amz-Target} header
 * (the JSON protocol's marker), and every successful answer must be XML. Violations are kept and
 * checked by the tests, because an exception thrown here would be reported as a client error.
 */
public final class QueryWireRecorder extends RequestHandler2 {
    private final Set<String> actions = ConcurrentHashMap.newKeySet();
    private final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void beforeRequest(Request<?> request) {
        Map<String, List<String>> params = request.getParameters();
        List<String> action = params.get("Action");
        if (action == null || action.size() != 1) {
            violations.add("no Action parameter in " + params.keySet());
            return;
        }
        actions.add(action.get(0));
        if (!List.of("2012-11-05").equals(params.get("Version"))) {
            violations.add(action.get(0) + ": Version=" + params.get("Version"));
        }
        for (String header : request.getHeaders().keySet()) {
            if (header.equalsIgnoreCase("X-Amz-Target")) {
                violations.add(action.get(0) + ": sent X-Amz-Target, i.e. the JSON protocol");
            }
        }
    }

    @Override
    public void afterResponse(Request<?> request, Response<?> response) {
        String type = response.getHttpResponse().getHeaders().get("Content-Type");
        if (type == null || !type.startsWith("text/xml")) {
            violations.add(request.getParameters().get("Action") + ": answered with Content-Type " + type);
        }
    }

    /** Every action name this client has sent so far. */
    public Set<String> actions() {
        return Set.copyOf(actions);
    }

    /** What did not look like Query/XML; empty when the wire was Query throughout. */
    public List<String> violations() {
        return List.copyOf(violations);
    }
}
