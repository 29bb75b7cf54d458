package io.hikyaku.engine.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.RedriveAllowPolicy;
import io.hikyaku.engine.RedrivePolicy;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.StartMoveTask;
import io.hikyaku.engine.VisibilityChange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CommandCodecTest {

    private static final QueueRef Q = new QueueRef("123456789012", "orders-\u00e9");
    private static final long NOW = 1_700_000_000_123L;
    /** Every character class a body may hold: ASCII, 2-, 3- and 4-byte UTF-8, tab, CR, LF. */
    private static final String UNICODE = "h\u00e9llo \u65e5\u672c\u8a9e \uD83D\uDE80\t\r\n\uE000\uFFFD";

    private static Map<String, MessageAttribute> everyDataType() {
        Map<String, MessageAttribute> a = new LinkedHashMap<>();
        a.put("s", new MessageAttribute("String", UNICODE, null));
        a.put("n", new MessageAttribute("Number", "-12.5e3", null));
        a.put("b", new MessageAttribute("Binary", null, new byte[] {0, 1, (byte) 0xFF, (byte) 0x80}));
        a.put("custom", new MessageAttribute("String.custom-type", "x", null));
        a.put("nc", new MessageAttribute("Number.float", "3", null));
        a.put("bc", new MessageAttribute("Binary.gif", null, new byte[0]));
        return a;
    }

    private static SendMessage fullMessage(String body) {
        return new SendMessage(body, everyDataType(), "Root=1-5759e988-bd862e3fe1be46a994272793", 900, "group-\u00e9",
                "dedup-1", "AIDAEXAMPLE", "6a1f0c1e-8b5b-4d0e-9a1e-0123456789ab", "ignored-digest");
    }

    private static SendMessage bareMessage() {
        return new SendMessage("", null, null, null, null, null, null, "id-2");
    }

    /** One command of every type, with nulls and non-nulls both exercised across them. */
    static List<Command> everyType() {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("VisibilityTimeout", "30");
        attrs.put("RedrivePolicy", "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:123456789012:dlq\",\"maxReceiveCount\":3}");
        attrs.put("Policy", "");
        AttributeUpdate withPolicies = new AttributeUpdate(attrs,
                new RedrivePolicy("arn:aws:sqs:us-east-1:123456789012:dlq", 3),
                new RedriveAllowPolicy("byQueue", List.of("arn:aws:sqs:us-east-1:123456789012:a")));
        AttributeUpdate noMax = new AttributeUpdate(Map.of(), new RedrivePolicy("arn", null),
                new RedriveAllowPolicy("allowAll", null));
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("team", "\u65e5\u672c");
        tags.put("empty", "");
        List<Command> all = new ArrayList<>();
        all.add(new Command.CreateQueue(new CreateQueue("123456789012", "eu-west-1", "q.fifo", withPolicies, tags, NOW)));
        all.add(new Command.CreateQueue(new CreateQueue("123456789012", null, "q", null, null, NOW)));
        all.add(new Command.DeleteQueue(Q, NOW));
        all.add(new Command.PurgeQueue(Q, NOW + 1));
        all.add(new Command.SetQueueAttributes(Q, noMax, NOW));
        all.add(new Command.SetQueueAttributes(Q, AttributeUpdate.of(attrs), NOW));
        all.add(new Command.TagQueue(Q, tags, NOW));
        all.add(new Command.UntagQueue(Q, List.of("team", "\u00e9"), NOW));
        all.add(new Command.AddPermission(Q, "label", List.of("111122223333", "444455556666"), List.of("*", "SendMessage"),
                NOW));
        all.add(new Command.RemovePermission(Q, "label", NOW));
        all.add(new Command.SendMessage(Q, fullMessage(UNICODE), NOW));
        all.add(new Command.SendMessage(Q, bareMessage(), NOW));
        all.add(new Command.SendOnce(Q, fullMessage(UNICODE), "arn:aws:scheduler:us-east-1:000000000000:schedule/default/s\u00e9",
                7, Long.MAX_VALUE, NOW));
        all.add(new Command.SendOnce(Q, bareMessage(), "", 0, -1, NOW));
        all.add(new Command.SendMessageBatch(Q, List.of(fullMessage("a"), bareMessage(), fullMessage(UNICODE)), NOW));
        all.add(new Command.SendMessageBatch(Q, List.of(), NOW));
        all.add(new Command.ReceiveMessage(Q, new ReceiveMessages(10, 43200, "attempt-\u00e9", Long.MIN_VALUE, NOW)));
        all.add(new Command.ReceiveMessage(Q, new ReceiveMessages(1, null, null, -1L, NOW)));
        all.add(new Command.DeleteMessage(Q, "AQEB-handle", NOW));
        all.add(new Command.DeleteMessageBatch(Q, List.of("h1", "h2", ""), NOW));
        all.add(new Command.ChangeVisibility(Q, "h", 43200, NOW));
        all.add(new Command.ChangeVisibilityBatch(Q, List.of(new VisibilityChange("h1", 0), new VisibilityChange("h2", -1)),
                NOW));
        all.add(new Command.StartMoveTask(new StartMoveTask("arn:src", "arn:dst", 500, "task-id", NOW)));
        all.add(new Command.StartMoveTask(new StartMoveTask("arn:src", null, null, "task-id", NOW)));
        all.add(new Command.CancelMoveTask("handle", Long.MAX_VALUE));
        all.add(new Command.Tick(0));
        all.add(new Command.Tick(NOW));
        all.add(new Command.Advance(Q, NOW));
        all.add(new Command.SealMessage(Q, 42, "6a1f0c1e-8b5b-4d0e-9a1e-0123456789ab", "\u0001hk2:5:QUJD" + UNICODE, NOW));
        return all;
    }

    @Test
    void everyCommandTypeIsCovered() {
        Set<Class<?>> covered = everyType().stream().map(Object::getClass).collect(Collectors.toSet());
        Set<Class<?>> declared = Set.of(Command.class.getPermittedSubclasses());
        assertEquals(declared, covered);
    }

    @Test
    void everyTypeRoundTrips() {
        for (Command c : everyType()) {
            byte[] bytes = CommandCodec.encode(c);
            assertEquals(CommandCodec.VERSION, bytes[0]);
            Command back = CommandCodec.decode(bytes);
            assertEquals(c.getClass(), back.getClass());
            assertEquals(c.now(), back.now());
            assertArrayEquals(bytes, CommandCodec.encode(back), c.getClass().getSimpleName());
            if (!containsBinary(c)) {
                assertEquals(withoutDigests(c), back, c.getClass().getSimpleName()); // value equality, field by field
            }
        }
    }

    @Test
    void messagesKeepBodiesAttributesAndTheirOrder() {
        Command.SendMessage back = (Command.SendMessage) CommandCodec.decode(
                CommandCodec.encode(new Command.SendMessage(Q, fullMessage(UNICODE), NOW)));
        SendMessage m = back.message();
        assertEquals(UNICODE, m.body());
        assertEquals(List.of("s", "n", "b", "custom", "nc", "bc"), List.copyOf(m.attributes().keySet()));
        Map<String, MessageAttribute> expected = everyDataType();
        for (String name : expected.keySet()) {
            MessageAttribute want = expected.get(name);
            MessageAttribute got = m.attributes().get(name);
            assertEquals(want.dataType(), got.dataType());
            assertEquals(want.stringValue(), got.stringValue());
            assertArrayEquals(want.binaryValue(), got.binaryValue());
            assertEquals(want.isBinary(), got.isBinary());
        }
        assertEquals(900, m.delaySeconds());
        assertEquals("group-\u00e9", m.groupId());
        assertNull(m.bodyDigest(), "the body digest is a cache, not state: not journalled");
    }

    @Test
    void maximumSizesRoundTrip() {
        // A body of 1 MiB of UTF-8 in 4-byte characters (the size limit), a 1 MiB binary attribute,
        // a batch of 10 such entries, 50 tags of the longest length.
        String big = "\uD83D\uDE80".repeat(1 << 18);
        byte[] blob = new byte[1 << 20];
        for (int i = 0; i < blob.length; i++) {
            blob[i] = (byte) i;
        }
        Map<String, MessageAttribute> attrs = new LinkedHashMap<>();
        attrs.put("blob", new MessageAttribute("Binary", null, blob));
        SendMessage m = new SendMessage(big, attrs, null, 0, null, null, "sender", "id");
        List<SendMessage> ten = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ten.add(m);
        }
        Command.SendMessageBatch batch = (Command.SendMessageBatch) CommandCodec.decode(
                CommandCodec.encode(new Command.SendMessageBatch(Q, ten, NOW)));
        assertEquals(10, batch.messages().size());
        assertEquals(big, batch.messages().get(9).body());
        assertArrayEquals(blob, batch.messages().get(9).attributes().get("blob").binaryValue());
        Map<String, String> tags = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            tags.put(String.format("%0128d", i), "v".repeat(256));
        }
        Command.TagQueue tagged = (Command.TagQueue) CommandCodec.decode(
                CommandCodec.encode(new Command.TagQueue(Q, tags, NOW)));
        assertEquals(tags, tagged.tags());
        String longName = "q".repeat(80);
        Command c = CommandCodec.decode(CommandCodec.encode(new Command.PurgeQueue(new QueueRef("123456789012", longName),
                Long.MAX_VALUE)));
        assertEquals(new Command.PurgeQueue(new QueueRef("123456789012", longName), Long.MAX_VALUE), c);
    }

    @Test
    void damagedRecordsAreRefusedNotMisread() {
        byte[] good = CommandCodec.encode(new Command.SendMessage(Q, fullMessage(UNICODE), NOW));
        for (int cut = 0; cut < good.length; cut += 7) {
            byte[] shorter = Arrays.copyOf(good, cut);
            assertThrows(IllegalArgumentException.class, () -> CommandCodec.decode(shorter), "cut at " + cut);
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertThrows(IllegalArgumentException.class, () -> CommandCodec.decode(longer));
        byte[] version = good.clone();
        version[0] = 2;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CommandCodec.decode(version));
        assertTrue(e.getMessage().contains("version 2"));
        byte[] tag = good.clone();
        tag[1] = (byte) 200;
        assertThrows(IllegalArgumentException.class, () -> CommandCodec.decode(tag));
        byte[] hugeLength = good.clone();
        hugeLength[2] = 0x7F; // the account id's length: 2 GiB claimed, a few bytes left
        assertThrows(IllegalArgumentException.class, () -> CommandCodec.decode(hugeLength));
    }

    private static boolean containsBinary(Command c) {
        List<SendMessage> ms = c instanceof Command.SendMessage s ? List.of(s.message())
                : c instanceof Command.SendOnce o ? List.of(o.message())
                : c instanceof Command.SendMessageBatch b ? b.messages() : List.of();
        return ms.stream().anyMatch(m -> m.attributes() != null
                && m.attributes().values().stream().anyMatch(MessageAttribute::isBinary));
    }

    private static Command withoutDigests(Command c) {
        if (c instanceof Command.SendMessageBatch b) {
            return new Command.SendMessageBatch(b.queue(), b.messages().stream().map(CommandCodecTest::noDigest).toList(),
                    b.now());
        }
        if (c instanceof Command.SendOnce o) {
            return new Command.SendOnce(o.queue(), noDigest(o.message()), o.source(), o.generation(), o.position(), o.now());
        }
        return c;
    }

    private static SendMessage noDigest(SendMessage m) {
        return new SendMessage(m.body(), m.attributes(), m.awsTraceHeader(), m.delaySeconds(), m.groupId(),
                m.deduplicationId(), m.senderId(), m.messageId(), null);
    }

}
