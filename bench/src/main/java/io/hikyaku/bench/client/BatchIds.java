package io.hikyaku.bench.client;

/**
 * Batch entry ids of the form prefix + index ("e0".."e9" for sends, "d0".. for deletes), so an
 * answer's Successful[].Id indexes an array of the request's entries instead of a HashMap.
 */
public final class BatchIds {
    private static final int CACHED = 10;
    /** "a0".."z9", made once: ids are built for every batch entry. */
    private static final String[][] IDS = new String[26][CACHED];

    static {
        for (char p = 'a'; p <= 'z'; p++) {
            for (int i = 0; i < CACHED; i++) {
                IDS[p - 'a'][i] = p + Integer.toString(i);
            }
        }
    }

    private BatchIds() {
    }

    public static String id(char prefix, int index) {
        if (prefix >= 'a' && prefix <= 'z' && index >= 0 && index < CACHED) {
            return IDS[prefix - 'a'][index];
        }
        return prefix + Integer.toString(index);
    }

    /** The index of an id made by id(prefix, i), or -1 for null, another prefix or anything else. */
    public static int index(char prefix, String id) {
        if (id == null || id.length() < 2 || id.length() > 10 || id.charAt(0) != prefix) {
            return -1;
        }
        int n = 0;
        for (int i = 1; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < '0' || c > '9' || (c == '0' && i == 1 && id.length() > 2)) {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
