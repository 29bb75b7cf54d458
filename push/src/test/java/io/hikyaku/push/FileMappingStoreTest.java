package io.hikyaku.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.filter.FilterCriteria;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileMappingStoreTest {

    @TempDir
    Path dir;

    private static EventSourceMapping mapping(String uuid, boolean enabled) throws Exception {
        return new EventSourceMapping(uuid, "000000000000", "us-east-1", "fn",
                QueueArn.parse("arn:aws:sqs:us-east-1:000000000000:q.fifo").orElseThrow(), true, 10, 0, true, 5,
                FilterCriteria.of(List.of("{\"body\":{\"a\":[1]}}")), enabled, 1_700_000_000_123L)
                .withTags(java.util.Map.of("team", "orders", "env", ""));
    }

    @Test
    void savesAndLoadsEveryFieldAndLeavesNoTemporaryFile() throws Exception {
        FileMappingStore store = new FileMappingStore(dir);
        assertThat(store.load()).isEmpty();
        store.save(List.of(mapping("a", true), mapping("b", false)));
        List<EventSourceMapping> loaded = new FileMappingStore(dir).load();
        assertThat(loaded).hasSize(2);
        EventSourceMapping a = loaded.get(0);
        assertThat(a.toStoredJson()).isEqualTo(mapping("a", true).toStoredJson());
        assertThat(loaded.get(1).enabled()).isFalse();
        assertThat(a.tags()).containsExactly(java.util.Map.entry("env", ""), java.util.Map.entry("team", "orders"));
        assertThat(a.filters().patterns()).containsExactly("{\"body\":{\"a\":[1]}}");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(FileMappingStore.FILE_NAME);
        }
        // another local user must not read the mappings (functions, filters)
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(FileMappingStore.FILE_NAME))))
                .isEqualTo("rw-------");
        store.save(List.of());
        assertThat(store.load()).isEmpty();
    }

    @Test
    void aBackupCopyHoldsTheSameMappings(@TempDir Path backup) throws Exception {
        FileMappingStore.copyInto(dir, backup); // nothing stored yet: nothing to copy
        assertThat(new FileMappingStore(backup).load()).isEmpty();
        new FileMappingStore(dir).save(List.of(mapping("a", true)));
        FileMappingStore.copyInto(dir, backup);
        assertThat(new FileMappingStore(backup).load()).extracting(EventSourceMapping::uuid).containsExactly("a");
    }
}
