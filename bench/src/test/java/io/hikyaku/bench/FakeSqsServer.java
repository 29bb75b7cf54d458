package io.hikyaku.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tiny in-memory SQS speaking AWS JSON 1.0, for the bench tool's smoke tests. One I/O thread,
 * so its state needs no locks. Supports long polling and FIFO group locking (a group with
 * messages in flight is skipped), which is what the scenarios rely on. No visibility timeout.
 */
public final class FakeSqsServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Map<String, FakeQueue> queues = new LinkedHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final Channel serverChannel;
    private final int port;

    public FakeSqsServer(int port) throws InterruptedException {
        serverChannel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Handler());
                    }
                }).bind("127.0.0.1", port).sync().channel();
        this.port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    public static void main(String[] args) throws Exception {
        FakeSqsServer s = new FakeSqsServer(Integer.parseInt(args[0]));
        Runtime.getRuntime().addShutdownHook(new Thread(s::close));
        s.serverChannel.closeFuture().sync();
    }

    public int port() {
        return port;
    }

    public long requests() {
        return requests.get();
    }

    @Override
    public void close() {
        serverChannel.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private record Msg(String id, String body, String group, String handle) {
    }

    private record Waiter(ChannelHandlerContext ctx, int max, FakeQueue queue) {
    }

    private static final class FakeQueue {
        final String url;
        final boolean fifo;
        final ArrayDeque<Msg> visible = new ArrayDeque<>();
        final Map<String, Msg> inFlight = new HashMap<>();
        final Map<String, Integer> inFlightPerGroup = new HashMap<>();
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

        FakeQueue(String url, boolean fifo) {
            this.url = url;
            this.fifo = fifo;
        }
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) throws Exception {
            requests.incrementAndGet();
            String target = req.headers().get("X-Amz-Target", "");
            String action = target.substring(target.indexOf('.') + 1);
            JsonNode in = JSON.readTree((java.io.InputStream) new ByteBufInputStream(req.content()));
            ObjectNode out = JSON.createObjectNode();
            switch (action) {
                case "CreateQueue" -> {
                    String name = in.path("QueueName").asText();
                    String url = "http://127.0.0.1:" + port + "/000000000000/" + name;
                    boolean fifo = in.path("Attributes").path("FifoQueue").asText("false").equals("true");
                    queues.computeIfAbsent(url, u -> new FakeQueue(u, fifo));
                    out.put("QueueUrl", url);
                }
                case "GetQueueUrl" -> {
                    String url = "http://127.0.0.1:" + port + "/000000000000/" + in.path("QueueName").asText();
                    if (!queues.containsKey(url)) {
                        error(ctx, "QueueDoesNotExist");
                        return;
                    }
                    out.put("QueueUrl", url);
                }
                case "ListQueues" -> {
                    ArrayNode urls = out.putArray("QueueUrls");
                    queues.keySet().forEach(urls::add);
                }
                case "DeleteQueue" -> queues.remove(in.path("QueueUrl").asText());
                case "GetQueueAttributes" -> {
                    FakeQueue q = queue(ctx, in);
                    if (q == null) {
                        return;
                    }
                    out.putObject("Attributes").put("ApproximateNumberOfMessages", Integer.toString(q.visible.size()));
                }
                case "SendMessage" -> {
                    FakeQueue q = queue(ctx, in);
                    if (q == null) {
                        return;
                    }
                    out.put("MessageId", enqueue(q, in.path("MessageBody").asText(), in.path("MessageGroupId").asText(null)));
                }
                case "SendMessageBatch" -> {
                    FakeQueue q = queue(ctx, in);
                    if (q == null) {
                        return;
                    }
                    ArrayNode ok = out.putArray("Successful");
                    out.putArray("Failed");
                    for (JsonNode e : in.path("Entries")) {
                        String id = enqueue(q, e.path("MessageBody").asText(), e.path("MessageGroupId").asText(null));
                        ok.addObject().put("Id", e.path("Id").asText()).put("MessageId", id);
                    }
                }
                case "ReceiveMessage" -> {
                    FakeQueue q = queue(ctx, in);
                    if (q == null) {
                        return;
                    }
                    int max = in.path("MaxNumberOfMessages").asInt(1);
                    List<Msg> got = take(q, max);
                    int wait = in.path("WaitTimeSeconds").asInt(0);
                    if (got.isEmpty() && wait > 0) {
                        Waiter w = new Waiter(ctx, max, q);
                        q.waiters.add(w);
                        ctx.executor().schedule(() -> {
                            if (q.waiters.remove(w)) {
                                reply(ctx, messages(List.of()));
                            }
                        }, wait, TimeUnit.SECONDS);
                        return;
                    }
                    out = messages(got);
                }
                case "DeleteMessage" -> {
                    FakeQueue q = queue(ctx, in);
                    if (q == null) {
                        return;
                    }
                    delete(q, in.path("ReceiptHandle").asText());
                }
                case "DeleteMessageBatch" -> {
                    FakeQueue q = queue(ctx, in);
                    if (q == null) {
                        return;
                    }
                    ArrayNode ok = out.putArray("Successful");
                    ArrayNode failed = out.putArray("Failed");
                    for (JsonNode e : in.path("Entries")) {
                        if (delete(q, e.path("ReceiptHandle").asText())) {
                            ok.addObject().put("Id", e.path("Id").asText());
                        } else {
                            failed.addObject().put("Id", e.path("Id").asText()).put("Code", "ReceiptHandleIsInvalid")
                                    .put("SenderFault", true);
                        }
                    }
                }
                default -> {
                    error(ctx, "InvalidAction");
                    return;
                }
            }
            reply(ctx, out);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            for (FakeQueue q : queues.values()) {
                q.waiters.removeIf(w -> w.ctx() == ctx);
            }
        }
    }

    private FakeQueue queue(ChannelHandlerContext ctx, JsonNode in) {
        FakeQueue q = queues.get(in.path("QueueUrl").asText());
        if (q == null) {
            error(ctx, "QueueDoesNotExist");
        }
        return q;
    }

    private String enqueue(FakeQueue q, String body, String group) {
        String id = "m" + ids.incrementAndGet();
        q.visible.add(new Msg(id, body, group, null));
        wake(q);
        return id;
    }

    private void wake(FakeQueue q) {
        while (!q.waiters.isEmpty() && !q.visible.isEmpty()) {
            Waiter w = q.waiters.peek();
            List<Msg> got = take(q, w.max());
            if (got.isEmpty()) {
                return;
            }
            q.waiters.poll();
            reply(w.ctx(), messages(got));
        }
    }

    private List<Msg> take(FakeQueue q, int max) {
        List<Msg> out = new ArrayList<>();
        Set<String> blocked = new HashSet<>();
        Iterator<Msg> it = q.visible.iterator();
        while (it.hasNext() && out.size() < max) {
            Msg m = it.next();
            if (q.fifo) {
                String g = m.group();
                boolean groupBusy = q.inFlightPerGroup.getOrDefault(g, 0) > 0
                        && out.stream().noneMatch(o -> o.group().equals(g));
                if (groupBusy || blocked.contains(g)) {
                    blocked.add(g);
                    continue;
                }
            }
            it.remove();
            Msg inflight = new Msg(m.id(), m.body(), m.group(), "rh-" + m.id());
            q.inFlight.put(inflight.handle(), inflight);
            if (q.fifo) {
                q.inFlightPerGroup.merge(m.group(), 1, Integer::sum);
            }
            out.add(inflight);
        }
        return out;
    }

    private boolean delete(FakeQueue q, String handle) {
        Msg m = q.inFlight.remove(handle);
        if (m == null) {
            return false;
        }
        if (q.fifo) {
            q.inFlightPerGroup.merge(m.group(), -1, Integer::sum);
            wake(q);
        }
        return true;
    }

    private static ObjectNode messages(List<Msg> got) {
        ObjectNode out = JSON.createObjectNode();
        ArrayNode arr = out.putArray("Messages");
        for (Msg m : got) {
            arr.addObject().put("MessageId", m.id()).put("ReceiptHandle", m.handle()).put("Body", m.body());
        }
        return out;
    }

    private static void error(ChannelHandlerContext ctx, String type) {
        ObjectNode err = JSON.createObjectNode().put("__type", "com.amazonaws.sqs#" + type).put("message", type);
        send(ctx, HttpResponseStatus.BAD_REQUEST, err);
    }

    private static void reply(ChannelHandlerContext ctx, ObjectNode body) {
        send(ctx, HttpResponseStatus.OK, body);
    }

    private static void send(ChannelHandlerContext ctx, HttpResponseStatus status, ObjectNode body) {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/x-amz-json-1.0")
                .set(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        ctx.writeAndFlush(res);
    }
}
