package io.hikyaku.junit5;

import io.hikyaku.embedded.Hikyaku;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * An embedded Hikyaku for JUnit 5 tests:
 * <pre>{@code
 * @RegisterExtension static HikyakuExtension hikyaku = HikyakuExtension.perClass();
 * @Test void sends(SqsClient sqs, URI endpoint) { ... }
 * }</pre>
 * A static field with {@link #perClass()} gives one server for the class; {@link #perTest()} (on a static or
 * instance field) a fresh one for each test. Queues declared with {@link HikyakuQueue} on the test class exist
 * before each server's first request. Test parameters of type {@link URI}, {@link Hikyaku} and, when the AWS SDK
 * v2 SQS module is on the class path, {@code SqsClient} are injected (clients are closed after the test).
 */
public final class HikyakuExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(HikyakuExtension.class);

    private final boolean perTest;
    private final UnaryOperator<Hikyaku.Builder> settings;
    private volatile Hikyaku server;

    private HikyakuExtension(boolean perTest, UnaryOperator<Hikyaku.Builder> settings) {
        this.perTest = perTest;
        this.settings = settings;
    }

    /** One in-memory server for all tests of the class (register on a static field). */
    public static HikyakuExtension perClass() {
        return new HikyakuExtension(false, b -> b);
    }

    /** A fresh in-memory server for each test. */
    public static HikyakuExtension perTest() {
        return new HikyakuExtension(true, b -> b);
    }

    /** The same, with more server settings, e.g. {@code .with(b -> b.region("eu-west-1"))}. */
    public HikyakuExtension with(UnaryOperator<Hikyaku.Builder> more) {
        Objects.requireNonNull(more, "more");
        return new HikyakuExtension(perTest, b -> more.apply(settings.apply(b)));
    }

    /** The running server's endpoint, to give an SDK client. */
    public URI endpoint() {
        return server().endpoint();
    }

    /**
     * Waits (up to 30 s, else fails) until the server has answered every request and SNS has delivered what it
     * holds ({@link Hikyaku#awaitIdle}): deterministic where a test would otherwise sleep.
     */
    public void awaitIdle() {
        server().awaitIdle(java.time.Duration.ofSeconds(30));
    }

    /** The running server. */
    public Hikyaku server() {
        Hikyaku s = server;
        if (s == null) {
            throw new IllegalStateException("no Hikyaku server is running: register the extension with "
                    + "@RegisterExtension (perClass() on a static field) and use it inside a test");
        }
        return s;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!perTest) {
            server = start(context.getRequiredTestClass());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!perTest) {
            stop();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (perTest || server == null) { // an instance field with perClass() also lands here: a server per test
            server = start(context.getRequiredTestClass());
            // closed by the test's store, after the clients injected into the test (stored later, closed first)
            context.getStore(NS).put("server", (ExtensionContext.Store.CloseableResource) this::stop);
        }
    }

    private Hikyaku start(Class<?> testClass) {
        Hikyaku.Builder b = Hikyaku.builder().port(0).inMemory();
        for (HikyakuQueue q : testClass.getAnnotationsByType(HikyakuQueue.class)) {
            b.queue(q.name(), attributes(q));
        }
        return settings.apply(b).start();
    }

    static Map<String, String> attributes(HikyakuQueue q) {
        Map<String, String> attributes = new LinkedHashMap<>();
        if (q.fifo()) {
            attributes.put("FifoQueue", "true");
        }
        for (String a : q.attributes()) {
            int eq = a.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("@HikyakuQueue(name=\"" + q.name() + "\") attribute '" + a
                        + "' is not Name=Value");
            }
            attributes.put(a.substring(0, eq), a.substring(eq + 1));
        }
        return attributes;
    }

    private void stop() {
        Hikyaku s = server;
        server = null;
        if (s != null) {
            s.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == URI.class || type == Hikyaku.class || SdkClients.supports(type);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == URI.class) {
            return endpoint();
        }
        if (type == Hikyaku.class) {
            return server();
        }
        AutoCloseable client = SdkClients.create(type, server());
        if (client == null) {
            throw new ParameterResolutionException("cannot make a " + type.getName());
        }
        context.getStore(NS).put(new Object(), (ExtensionContext.Store.CloseableResource) client::close);
        return client;
    }
}
