package io.hikyaku.engine.determinism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hikyaku.engine.QueueEngine;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build check that the engine is deterministic by construction: no class of engine/'s main
 * sources reads a clock or a random source, or uses threads, executors, locks or monitors
 * (ENGINE.md "Determinism check"). It reads the compiled classes, so nothing in the sources can hide
 * a call (a fully qualified name, a static import); it is shown to catch a planted one.
 */
class EngineDeterminismTest {

    @Test
    void noEngineClassReadsAClockRandomnessOrThreads() throws Exception {
        Path classes = Path.of(QueueEngine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> violations = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                scanned++;
                for (String v : NondeterminismScanner.scan(Files.readAllBytes(file))) {
                    violations.add(classes.relativize(file) + ": " + v);
                }
            }
        }
        assertTrue(scanned > 50, "scanned the engine's classes in " + classes + " (" + scanned + ")");
        assertEquals(List.of(), violations, "the engine must read no clock, randomness or threads");
    }

    @Test
    void aPlantedClockReadRandomIdThreadAndMonitorAreFound() throws IOException, URISyntaxException {
        Path planted = Path.of(PlantedNondeterminism.class.getResource("PlantedNondeterminism.class").toURI());
        List<String> found = NondeterminismScanner.scan(Files.readAllBytes(planted));
        assertTrue(found.contains("calls java/lang/System.currentTimeMillis"), found.toString());
        assertTrue(found.contains("calls java/util/UUID.randomUUID"), found.toString());
        assertTrue(found.contains("uses java/lang/Thread"), found.toString());
        assertTrue(found.contains("has a synchronized block in lockedRead"), found.toString());
    }
}
