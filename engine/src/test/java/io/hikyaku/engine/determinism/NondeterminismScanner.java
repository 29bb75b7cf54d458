package io.hikyaku.engine.determinism;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads one class file (its constant pool, method flags and bytecode) and names every way it could
 * make the engine's result depend on something other than its commands: a clock, a random source,
 * a thread, an executor, a lock or a monitor. Only the JDK's own {@link DataInputStream}: the class
 * file format (JVMS chapter 4) is small enough to read directly.
 */
final class NondeterminismScanner {

    /** Classes whose mere use is a clock, randomness or concurrency. */
    private static final Set<String> CLASSES = Set.of(
            "java/time/Clock", "java/time/InstantSource", "java/util/Random", "java/util/SplittableRandom",
            "java/security/SecureRandom", "java/util/concurrent/ThreadLocalRandom", "java/lang/Thread",
            "java/lang/ThreadGroup", "java/util/Timer", "java/util/concurrent/Executor",
            "java/util/concurrent/Executors", "java/util/concurrent/ExecutorService",
            "java/util/concurrent/ScheduledExecutorService", "java/util/concurrent/ForkJoinPool",
            "java/util/concurrent/ThreadPoolExecutor", "java/util/concurrent/ScheduledThreadPoolExecutor");
    private static final String LOCKS = "java/util/concurrent/locks/";

    private NondeterminismScanner() {
    }

    /** What {@code classFile} does that the engine must not (empty when nothing). */
    static List<String> scan(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNames = new int[count];
        int[] refClass = new int[count];
        int[] refNameAndType = new int[count];
        int[] natName = new int[count];
        List<Integer> refs = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // takes two slots
                }
                case 7 -> classNames[i] = in.readUnsignedShort();
                case 8, 16, 19, 20 -> in.readUnsignedShort();
                case 9, 10, 11 -> {
                    refClass[i] = in.readUnsignedShort();
                    refNameAndType[i] = in.readUnsignedShort();
                    refs.add(i);
                }
                case 12 -> {
                    natName[i] = in.readUnsignedShort();
                    in.readUnsignedShort();
                }
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 17, 18 -> in.readInt();
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        List<String> found = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            if (classNames[i] != 0) {
                String name = utf8[classNames[i]];
                if (CLASSES.contains(name) || name.startsWith(LOCKS)) {
                    found.add("uses " + name);
                }
            } else if (utf8[i] != null) {
                for (String c : CLASSES) {
                    if (utf8[i].contains("L" + c + ";")) {
                        found.add("declares a " + c);
                    }
                }
                if (utf8[i].contains("L" + LOCKS)) {
                    found.add("declares a lock (" + utf8[i] + ")");
                }
            }
        }
        for (int r : refs) {
            String owner = utf8[classNames[refClass[r]]];
            String member = utf8[natName[refNameAndType[r]]];
            String what = owner + "." + member;
            boolean clock = owner.equals("java/lang/System") && (member.equals("currentTimeMillis") || member.equals("nanoTime"))
                    || owner.startsWith("java/time/") && member.equals("now");
            boolean random = what.equals("java/util/UUID.randomUUID") || what.equals("java/lang/Math.random")
                    || what.equals("java/lang/StrictMath.random");
            boolean threads = owner.equals("java/util/concurrent/CompletableFuture") && member.endsWith("Async")
                    || owner.equals("java/lang/Object") && (member.equals("wait") || member.startsWith("notify"));
            if (clock || random || threads) {
                found.add("calls " + what);
            }
        }
        in.readUnsignedShort(); // access flags
        in.readUnsignedShort(); // this
        in.readUnsignedShort(); // super
        in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
        skipMembers(in, utf8, null); // fields
        skipMembers(in, utf8, found); // methods
        return found;
    }

    private static void skipMembers(DataInputStream in, String[] utf8, List<String> found) throws IOException {
        int members = in.readUnsignedShort();
        for (int m = 0; m < members; m++) {
            int flags = in.readUnsignedShort();
            String name = utf8[in.readUnsignedShort()];
            in.readUnsignedShort(); // descriptor
            if (found != null && (flags & 0x0020) != 0) {
                found.add("has a synchronized method " + name);
            }
            int attributes = in.readUnsignedShort();
            for (int a = 0; a < attributes; a++) {
                String attribute = utf8[in.readUnsignedShort()];
                byte[] body = in.readNBytes(in.readInt());
                if (found != null && attribute.equals("Code") && hasMonitor(body)) {
                    found.add("has a synchronized block in " + name);
                }
            }
        }
    }

    /** Whether a Code attribute's instructions hold a monitorenter (decoded, so operands never match). */
    private static boolean hasMonitor(byte[] codeAttribute) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(codeAttribute));
        in.readUnsignedShort(); // max stack
        in.readUnsignedShort(); // max locals
        byte[] code = in.readNBytes(in.readInt());
        int pc = 0;
        while (pc < code.length) {
            int op = code[pc] & 0xFF;
            if (op == 0xC2) {
                return true;
            }
            pc += length(code, pc, op);
        }
        return false;
    }

    private static int length(byte[] code, int pc, int op) {
        if (op == 0xAA || op == 0xAB) { // tableswitch, lookupswitch: padded to 4 bytes from the code start
            int at = (pc + 4) & ~3;
            if (op == 0xAA) {
                int low = intAt(code, at + 4);
                int high = intAt(code, at + 8);
                return at + 12 + (high - low + 1) * 4 - pc;
            }
            return at + 8 + intAt(code, at + 4) * 8 - pc;
        }
        if (op == 0xC4) { // wide
            return (code[pc + 1] & 0xFF) == 0x84 ? 6 : 4;
        }
        if (op == 0x10 || op == 0x12 || op >= 0x15 && op <= 0x19 || op >= 0x36 && op <= 0x3A || op == 0xA9
                || op == 0xBC) {
            return 2;
        }
        if (op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 || op >= 0x99 && op <= 0xA8
                || op >= 0xB2 && op <= 0xB8 || op == 0xBB || op == 0xBD || op == 0xC0 || op == 0xC1
                || op == 0xC6 || op == 0xC7) {
            return 3;
        }
        if (op == 0xC5) {
            return 4;
        }
        if (op == 0xB9 || op == 0xBA || op == 0xC8 || op == 0xC9) {
            return 5;
        }
        return 1;
    }

    private static int intAt(byte[] b, int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }
}
