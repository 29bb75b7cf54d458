package io.hikyaku.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.command.CommandCodec;
import io.hikyaku.engine.store.MemoryStore;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A journal recorded by an earlier build (every command type, refusals, a restart and the digest
 * at stop; written with main at 21da915 before the engine's door changed) still replays to the
 * digest it recorded, and every command in it decodes and encodes back to the very same bytes: the
 * codec's wire format is unchanged.
 */
class RecordedJournalReplayTest {

    private static final Path RECORDED = Path.of("src/test/resources/journals/every-command-v1.journal");

    @Test
    void aJournalOfAnEarlierBuildReplaysToItsRecordedDigest() throws IOException {
        JournalReplay.Outcome outcome = JournalReplay.replay(RECORDED, storage -> new MemoryStore());
        assertEquals(41, outcome.commands());
        assertEquals(2, outcome.loads());
        assertEquals("dcb8385386501b4e75ce2d688aec1cccf99763e7c880f354c63da4829d186d45", outcome.recordedDigest());
        assertTrue(outcome.matches(), "replayed " + outcome.digest());
        assertEquals(outcome.recordedDigest(), outcome.digest());
    }

    @Test
    void everyRecordedCommandEncodesBackToItsBytes() throws IOException {
        Set<Class<?>> kinds = new HashSet<>();
        try (InputStream file = java.nio.file.Files.newInputStream(RECORDED);
             DataInputStream in = new DataInputStream(file)) {
            in.readNBytes(JournalFormat.MAGIC.length + 1);
            while (in.available() > 0) {
                byte[] frame = in.readNBytes(in.readInt());
                if (frame[0] == JournalFormat.COMMAND) {
                    byte[] payload = Arrays.copyOfRange(frame, 1, frame.length);
                    Command command = CommandCodec.decode(payload);
                    kinds.add(command.getClass());
                    assertArrayEquals(payload, CommandCodec.encode(command), command.toString());
                }
            }
        }
        // Command types added after the recording are not in it (their codec round trip is CommandCodecTest's).
        Set<Class<?>> newer = Set.of(Command.SendOnce.class, Command.SealMessage.class);
        assertEquals(Command.class.getPermittedSubclasses().length - newer.size(), kinds.size(), "every command type is recorded");
    }
}
